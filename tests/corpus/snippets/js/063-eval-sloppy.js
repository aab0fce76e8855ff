eval("var fromEval = 'leaked'");
console.log(fromEval, new Function("a", "b", "return a * b")(6, 7));
