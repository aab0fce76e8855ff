const sleep = (ms, v) => new Promise((r) => setTimeout(() => r(v), ms));
async function main() {
  const a = await sleep(5, 1);
  const [b, c] = await Promise.all([sleep(10, 2), sleep(1, 3)]);
  return a + b + c;
}
main().then((v) => console.log("sum", v));
console.log("started");
