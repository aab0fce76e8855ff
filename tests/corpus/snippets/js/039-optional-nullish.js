const user = { profile: { name: "" }, list: null };
console.log(user.profile?.name ?? "anon", user.profile?.name || "anon", user.list?.[0], user.missing?.deep.deeper);
let x = null; x ??= 7; let y = 0; y ||= 9;
console.log(x, y);
