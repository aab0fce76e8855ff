const data = { name: "Ada", born: new Date(Date.UTC(1815, 11, 10)), tags: new Set(["math"]), n: 1n <= 2n };
const text = JSON.stringify(data, (k, v) => (v instanceof Set ? [...v] : v), 2);
console.log(text);
const back = JSON.parse(text, (k, v) => (k === "born" ? new Date(v) : v));
console.log(back.born.getUTCFullYear());
