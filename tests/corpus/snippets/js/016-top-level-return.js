const items = [3, 1, 2];
if (items.length) {
  console.log("returning early");
  return items.sort();
}
console.log("not reached");
