// corpus: smoke
const v = await new Promise((r) => setTimeout(() => r(21), 5));
console.log("value", v * 2);
