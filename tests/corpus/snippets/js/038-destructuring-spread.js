const { a, b: { c = 5 } = {}, ...rest } = { a: 1, b: {}, d: 4, e: 5 };
const [first, , third = "default", ...others] = [10, 20, undefined, 40, 50];
console.log(a, c, rest, first, third, others, Math.max(...others));
