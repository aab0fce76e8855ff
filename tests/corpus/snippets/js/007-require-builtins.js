// corpus: smoke
const path = require("node:path");
const os = require("os");
const util = require("node:util");
console.log(path.join("a", "b", "..", "c.txt"), typeof os.cpus, util.format("%s=%d", "x", 42));
