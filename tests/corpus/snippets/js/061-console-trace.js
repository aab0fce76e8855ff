function traced() { console.trace("tracing"); }
traced();
console.log("after trace");
