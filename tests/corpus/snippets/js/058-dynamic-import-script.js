const { join } = await import("node:path");
console.log(join("x", "y"), typeof require);
