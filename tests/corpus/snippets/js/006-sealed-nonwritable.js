const s = Object.seal({ a: 1 });
s.b = 2;
delete s.a;
const fixed = {};
Object.defineProperty(fixed, "k", { value: 1, writable: false });
fixed.k = 5;
console.log(s, fixed.k, Object.isSealed(s));
