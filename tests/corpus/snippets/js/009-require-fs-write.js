const fs = require("node:fs");
fs.writeFileSync("hello.txt", "hi there\n");
console.log(fs.readFileSync("hello.txt", "utf8").trim(), fs.existsSync("hello.txt"));
