const crypto = require("node:crypto");
console.log(crypto.createHash("sha256").update("sandpad").digest("hex"));
console.log(crypto.randomBytes(8).length);
