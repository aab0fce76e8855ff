function inner() { return new Error("where am I").stack; }
console.log(inner());
