const values = [1, 2, 3, 4];
var result = values.reduce((a, b) => a + b, 0);
console.log("sum ready");
