function main() { console.log("main ran"); }
if (require.main === module) main();
console.log(typeof module.exports, module.id === "." || module.id);
