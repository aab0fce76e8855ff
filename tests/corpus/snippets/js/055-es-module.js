// corpus: differs: Sandpad keeps a global require in modules too (docs/runtime-protocol.md); node has none in ES modules
import { basename } from "node:path";
import fs from "node:fs";
console.log(basename("/x/y/z.txt"), typeof fs.readFileSync, typeof this, typeof require);
