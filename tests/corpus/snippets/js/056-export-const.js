// corpus: smoke
export const answer = 42;
export default function hello() { return "hi"; }
console.log(answer, hello());
