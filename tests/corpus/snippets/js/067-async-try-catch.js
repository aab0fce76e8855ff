async function fails() { await null; throw new SyntaxError("bad async"); }
(async () => {
  try { await fails(); } catch (e) { console.log("caught", e.name, e.message); }
  finally { console.log("cleanup"); }
})();
