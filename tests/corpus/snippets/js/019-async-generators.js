async function* ticks(n) {
  for (let i = 0; i < n; i++) {
    await new Promise((r) => setTimeout(r, 2));
    yield i;
  }
}
(async () => {
  const seen = [];
  for await (const t of ticks(4)) seen.push(t);
  console.log(seen);
})();
