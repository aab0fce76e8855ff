console.table([{ a: 1, b: "x" }, { a: 2, b: "y" }]);
console.dir({ nested: { level: { deeper: { deepest: 1 } } } }, { depth: 0 });
console.error("to stderr");
console.info("info goes to stdout");
