class ValidationError extends Error {
  constructor(field) { super(`invalid ${field}`); this.name = "ValidationError"; this.field = field; }
}
try {
  throw new ValidationError("email");
} catch (e) {
  console.log(e instanceof ValidationError, e.name, e.message, e.field);
}
throw new ValidationError("age");
