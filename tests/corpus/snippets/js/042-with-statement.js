const point = { x: 3, y: 4 };
with (point) {
  console.log(Math.sqrt(x * x + y * y));
}
