const d = new Date(Date.UTC(2024, 1, 29, 12, 30));
console.log(d.toISOString(), d.getUTCDay(), d.getTime());
const next = new Date(d);
next.setUTCFullYear(2025);
console.log(next.toISOString());
