// corpus: smoke
console.log(this === module.exports, JSON.stringify(this));
exports.name = "snippet";
console.log(this.name);
