const original = { when: new Date(0), list: [1, { deep: true }], map: new Map([[1, "one"]]) };
const copy = structuredClone(original);
copy.list[1].deep = false;
console.log(original.list[1].deep, copy.map.get(1), copy.when instanceof Date);
