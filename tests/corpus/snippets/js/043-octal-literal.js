console.log(010, 0o10, 0x10, 0b10);
