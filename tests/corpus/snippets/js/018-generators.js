function* range(start, end, step = 1) {
  for (let i = start; i < end; i += step) yield i;
}
function* take(n, it) { for (const v of it) { if (n-- <= 0) return; yield v; } }
function* naturals() { let n = 0; while (true) yield n++; }
console.log([...range(0, 10, 3)], [...take(4, naturals())]);
