const o = { b: 1, 2: "two", a: 2, 1: "one", [Symbol("s")]: 3 };
for (const k in o) console.log(k);
console.log(Object.entries(o).length, Object.fromEntries([["x", 1]]));
