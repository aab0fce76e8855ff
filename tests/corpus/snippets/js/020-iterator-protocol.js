const countdown = {
  from: 3,
  [Symbol.iterator]() {
    let n = this.from;
    return { next: () => (n >= 0 ? { value: n--, done: false } : { value: undefined, done: true }) };
  },
};
console.log([...countdown], Array.from(countdown, (x) => x * 2));
