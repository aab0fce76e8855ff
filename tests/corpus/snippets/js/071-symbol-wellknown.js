class Temp {
  constructor(c) { this.c = c; }
  [Symbol.toPrimitive](hint) { return hint === "string" ? `${this.c}°C` : this.c; }
  get [Symbol.toStringTag]() { return "Temp"; }
}
const t = new Temp(21);
console.log(`${t}`, t + 1, Object.prototype.toString.call(t), Symbol("d").description);
