// corpus: differs: node runs a .js with top-level await as an ES module (no require); Sandpad keeps it a script
const { join } = await import("node:path");
console.log(join("x", "y"), typeof require);
