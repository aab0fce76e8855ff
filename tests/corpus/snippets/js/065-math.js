console.log(Math.round(2.5), Math.round(-2.5), Math.trunc(-4.7), Math.sign(-3), Math.hypot(3, 4), Math.cbrt(27));
console.log(0.1 * 3, 1 / 0, -1 / 0, 0 / 0, Number.EPSILON > 0, Number.isInteger(5.0));
