console.log(typeof hoisted, hoisted);
var hoisted = "now set";
console.log(declaredLater());
function declaredLater() { return "function hoisted"; }
if (true) { function inBlock() { return "block fn"; } }
console.log(inBlock());
