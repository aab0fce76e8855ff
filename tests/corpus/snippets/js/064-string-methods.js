const s = "  Sandpad Notebook  ";
console.log(`[${s.trim()}]`, s.trim().split(" ").map((w) => w[0]).join(""), "7".padStart(3, "0"), "ab".repeat(3));
console.log("straße".toUpperCase(), "a,b,,c".split(","), "Hello".at(-1), "abc".localeCompare("abd"));
