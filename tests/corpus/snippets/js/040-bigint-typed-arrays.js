console.log(2n ** 64n, BigInt(Number.MAX_SAFE_INTEGER) + 2n, typeof 1n);
const buf = new Float32Array([1.5, 2.25]);
const bytes = new Uint8Array(buf.buffer);
console.log(buf, bytes.length, new DataView(buf.buffer).getFloat32(0, true));
