// The last step of `npm run build`: writes a brotli `.br` (Node's own zlib, at
// quality 11) and a zopfli gzip `.gz` beside each script and stylesheet of the
// browser build, which server.js serves to clients that accept them
// (express-static-gzip, brotli first). Zopfli's gzip is 2.7% smaller than zlib's
// best, which keeps the public pages within their 90 kB gzip budget
// (docs/decisions/0008). Compressing once at build time costs the server nothing
// per request; the names are content-hashed, so a compressed file never outlives
// the file it was made from.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { gzipAsync } from "@gfx/zopfli";

const brotli = promisify(zlib.brotliCompress);

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const clientDir = path.resolve(root, process.env.BUILD_DIR || "build", "client");

const files = fs
  .readdirSync(clientDir, { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile() && /\.(js|css)$/.test(entry.name))
  .map((entry) => path.join(entry.parentPath, entry.name));

const totals = { source: 0, br: 0, gz: 0 };
await Promise.all(
  files.map(async (file) => {
    const source = fs.readFileSync(file);
    const [br, gz] = await Promise.all([
      brotli(source, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
          [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: source.length,
        },
      }),
      gzipAsync(source, { numiterations: 15 }),
    ]);
    fs.writeFileSync(`${file}.br`, br);
    fs.writeFileSync(`${file}.gz`, gz);
    totals.source += source.length;
    totals.br += br.length;
    totals.gz += gz.length;
  }),
);
const kB = (/** @type {number} */ bytes) => `${(bytes / 1024).toFixed(0)} kB`;
console.log(
  `precompressed ${files.length} files: ${kB(totals.source)} to ${kB(totals.br)} brotli, ${kB(totals.gz)} gzip`,
);
