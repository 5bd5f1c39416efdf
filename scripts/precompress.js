// The last step of `npm run build`: writes a zopfli-compressed `.gz` beside each
// script and stylesheet of the browser build, which server.js serves to clients
// that accept gzip (express-static-gzip). Zopfli makes gzip files about 3-5%
// smaller than on-the-fly compression, at build time only; the names are
// content-hashed, so a `.gz` never outlives the file it was made from.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipAsync } from "@gfx/zopfli";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const clientDir = path.resolve(root, process.env.BUILD_DIR || "build", "client");

const files = fs
  .readdirSync(clientDir, { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile() && /\.(js|css)$/.test(entry.name))
  .map((entry) => path.join(entry.parentPath, entry.name));

let before = 0;
let after = 0;
for (const file of files) {
  const source = fs.readFileSync(file);
  const compressed = await gzipAsync(source, { numiterations: 15 });
  fs.writeFileSync(`${file}.gz`, compressed);
  before += source.length;
  after += compressed.length;
}
console.log(
  `precompressed ${files.length} files: ${(before / 1024).toFixed(0)} kB to ${(after / 1024).toFixed(0)} kB gzip`
);
