const nested = [1, [2, [3, [4]]]];
console.log(nested.flat(Infinity), [1, 2, 3].flatMap((x) => [x, x * 10]), [5, 6, 7].at(-1));
console.log([3, 1, 2].toSorted?.() ?? "toSorted missing", [1, 2, 3, 4].findLast((x) => x % 2));
const people = [{ n: "b", a: 2 }, { n: "a", a: 2 }, { n: "c", a: 1 }];
console.log(people.sort((p, q) => p.a - q.a).map((p) => p.n).join(""));
