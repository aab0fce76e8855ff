console.log("setting exit code");
process.exitCode = 2;
