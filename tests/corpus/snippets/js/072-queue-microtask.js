const order = [];
queueMicrotask(() => order.push("micro"));
setTimeout(() => { order.push("macro"); console.log(order.join(" > ")); }, 0);
order.push("sync");
