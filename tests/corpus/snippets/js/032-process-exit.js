console.log("exiting");
process.exit(3);
console.log("not reached");
