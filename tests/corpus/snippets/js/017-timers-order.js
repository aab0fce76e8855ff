setTimeout(() => console.log("timeout"), 0);
Promise.resolve().then(() => console.log("microtask"));
process.nextTick(() => console.log("tick"));
console.log("sync");
