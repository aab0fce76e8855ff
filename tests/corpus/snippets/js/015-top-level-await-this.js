// corpus: differs: node runs a .js with top-level await as an ES module (this undefined, no require); Sandpad keeps it a script
await null;
console.log(typeof this, typeof require);
