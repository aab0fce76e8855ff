try {
  try { null.f(); } catch (inner) { throw new Error("outer", { cause: inner }); }
} catch (e) {
  console.log(e.message, "<-", e.cause.name);
}
Promise.any([Promise.reject(new Error("a")), Promise.reject(new Error("b"))])
  .catch((e) => console.log(e.name, e.errors.map((x) => x.message)));
