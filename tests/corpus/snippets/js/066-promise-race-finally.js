const slow = new Promise((r) => setTimeout(() => r("slow"), 30));
const fast = new Promise((r) => setTimeout(() => r("fast"), 5));
Promise.race([slow, fast]).then((v) => console.log("winner", v)).finally(() => console.log("finally"));
Promise.allSettled([Promise.reject(new Error("no")), fast]).then((r) => console.log(r.map((x) => x.status)));
