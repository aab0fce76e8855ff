function setup() { configured = true; }
setup();
console.log(typeof configured, configured, Object.keys(globalThis).includes("configured"));
