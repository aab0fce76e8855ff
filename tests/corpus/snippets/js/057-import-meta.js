const here = new URL(import.meta.url);
console.log(here.protocol, typeof import.meta.dirname);
