// corpus: smoke
function parse(n) {
  if (typeof n !== "number") throw new TypeError(`expected a number, got ${typeof n}`);
  return n;
}
console.log("before");
parse("7");
