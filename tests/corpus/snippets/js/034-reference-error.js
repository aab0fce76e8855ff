const total = 10;
console.log(totl);
