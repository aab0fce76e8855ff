outer: for (let i = 0; i < 3; i++) {
  for (let j = 0; j < 3; j++) {
    if (j === 2) continue outer;
    if (i === 2) break outer;
    console.log(i, j);
  }
}
switch (typeof null) { case "object": console.log("null is an object"); break; default: console.log("?"); }
