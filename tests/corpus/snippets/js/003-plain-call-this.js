function who() { return this === globalThis ? "global" : typeof this; }
const obj = { who };
console.log(who(), obj.who() === obj ? "obj" : "other");
