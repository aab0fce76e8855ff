module.exports = { add: (a, b) => a + b };
console.log(typeof exports.add, typeof module.exports.add, module.exports.add(2, 3));
