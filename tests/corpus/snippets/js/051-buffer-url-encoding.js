const b = Buffer.from("héllo", "utf8");
console.log(b, b.toString("base64"), b.length);
const u = new URL("https://example.com:8080/a/b?x=1&y=two#frag");
console.log(u.hostname, u.port, u.searchParams.get("y"), new TextEncoder().encode("✓").length);
