function f(a) {
  arguments[0] = "changed";
  return [a, arguments.length, typeof arguments.callee];
}
console.log(f("orig", 2, 3));
