// A JavaScript (Node.js) snippet: top-level await, console.log, and a `result`.
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const primes = [];
for (let n = 2; primes.length < 15; n++) {
  if (primes.every((p) => n % p !== 0)) primes.push(n);
}
console.log("first primes:", primes.join(", "));

await sleep(50);
console.error("this line goes to stderr");

const words = "the quick brown fox jumps over the lazy dog".split(" ");
const result = Object.fromEntries(words.map((w) => [w, w.length]));
