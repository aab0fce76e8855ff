const path = require("node:path");
console.log(path.basename(__filename), path.isAbsolute(__dirname), __dirname === process.cwd());
