for (let i = 0; i < 3000; i++) console.log(`line ${i}`);
