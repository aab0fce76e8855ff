const { EventEmitter } = require("node:events");
class Job extends EventEmitter {}
const job = new Job();
job.on("progress", (p) => console.log(`progress ${p}%`));
job.once("done", () => console.log("done"));
[25, 50, 100].forEach((p) => job.emit("progress", p));
job.emit("done"); job.emit("done");
console.log(job.listenerCount("done"));
