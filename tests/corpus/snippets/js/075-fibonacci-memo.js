const memo = new Map();
function fib(n) {
  if (n < 2) return BigInt(n);
  if (memo.has(n)) return memo.get(n);
  const v = fib(n - 1) + fib(n - 2);
  memo.set(n, v);
  return v;
}
console.log(fib(90).toString(), [...Array(10).keys()].map((n) => Number(fib(n))));
