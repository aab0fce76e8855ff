console.log("start");
Promise.reject(new RangeError("out of range"));
setTimeout(() => console.log("never"), 500);
