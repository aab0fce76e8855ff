const log = [];
const target = { a: 1 };
const p = new Proxy(target, {
  get(t, k, r) { log.push(`get ${String(k)}`); return Reflect.get(t, k, r) ?? `no ${String(k)}`; },
  set(t, k, v) { log.push(`set ${String(k)}`); t[k] = v * 2; return true; },
});
p.b = 5;
console.log(p.a, p.b, p.c, log);
