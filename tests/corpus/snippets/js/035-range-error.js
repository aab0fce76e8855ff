function deep(n) { return deep(n + 1) + 1; }
try { deep(0); } catch (e) { console.log(e.name, e.message); }
new Array(-1);
