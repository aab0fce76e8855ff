const temp = {
  _c: 20,
  get f() { return this._c * 9 / 5 + 32; },
  set f(v) { this._c = (v - 32) * 5 / 9; },
};
temp.f = 212;
console.log(temp._c, temp.f, Object.getOwnPropertyDescriptor(temp, "f").get !== undefined);
