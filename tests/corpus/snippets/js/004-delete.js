implicit = 1;
var declared = 2;
console.log(delete implicit, typeof implicit);
console.log(delete declared, declared);
const o = { a: 1 };
console.log(delete o.a, o);
