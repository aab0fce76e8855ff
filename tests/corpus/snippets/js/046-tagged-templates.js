function tag(strings, ...values) {
  return strings.raw.map((s, i) => s + (i < values.length ? `[${values[i]}]` : "")).join("");
}
const who = "world";
console.log(tag`hello ${who}\n and ${1 + 1}`, String.raw`a\tb`);
