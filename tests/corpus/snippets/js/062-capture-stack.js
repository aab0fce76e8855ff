function Custom(message) {
  this.message = message;
  Error.captureStackTrace(this, Custom);
}
const c = new Custom("captured");
console.log(c.stack.split("\n")[0], typeof c.stack);
