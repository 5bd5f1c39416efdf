import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
let worker: Promise<Buffer> | undefined;

/**
 * pdf.js's worker, served by the app from its installed package so the viewer's worker is same-origin
 * (the Content-Security-Policy's script-src 'self' admits it). Its address carries pdf.js's version,
 * so it may be cached for good.
 */
export async function loader() {
  worker ??= readFile(require.resolve("pdfjs-dist/build/pdf.worker.min.mjs"));
  return new Response(new Uint8Array(await worker), {
    headers: {
      "Content-Type": "text/javascript; charset=utf-8",
      "Cache-Control": "public, max-age=31536000, immutable",
    },
  });
}
