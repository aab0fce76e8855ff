const m = new Map([["a", 1], ["b", 2]]);
m.set("c", 3).delete("a");
const s = new Set([1, 2, 2, 3, 3, 3]);
console.log([...m], m.size, [...s], s.has(2));
const wm = new WeakMap(); const key = {}; wm.set(key, "v");
console.log(wm.get(key), wm.has({}));
