// corpus: smoke
counter = 0;
function bump() { counter += 1; }
bump(); bump();
console.log(counter, globalThis.counter, "counter" in globalThis);
