const util = require("node:util");
const deep = { a: { b: { c: { d: { e: 1 } } } }, arr: Array.from({ length: 120 }, (_, i) => i) };
console.log(deep);
console.log(util.inspect(deep, { depth: 0 }), util.inspect("str"), util.types.isDate(new Date()));
