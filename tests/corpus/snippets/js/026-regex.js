const text = "2024-03-15 and 2025-12-01";
const re = /(?<y>\d{4})-(?<m>\d{2})-(?<d>\d{2})/g;
for (const m of text.matchAll(re)) console.log(m.groups.y, m.groups.m, m.index);
console.log(text.replaceAll(/\d/g, "#"), /^\p{Lu}/u.test("Émile"));
