const o = {};
Reflect.defineProperty(o, "hidden", { value: 1, enumerable: false });
console.log(Reflect.ownKeys(o), Object.keys(o), Reflect.has(o, "hidden"));
console.log(Reflect.apply(Math.max, null, [1, 7, 3]));
