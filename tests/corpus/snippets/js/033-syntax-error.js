console.log("never");
const x = {;
