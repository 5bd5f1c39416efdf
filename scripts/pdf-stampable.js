// @ts-check
// Whether the PDF on stdin parses and takes a stamp (exit 0) or not (exit 1): the upload check of
// app/models/material-file.server.ts, run in a process of its own so that a large PDF, which pdf-lib holds
// whole and copies while it stamps, never weighs on the server's memory. It imports the app's own
// stamping module from its source (Node 24 strips its types), so that module must keep to plain imports.
import { buffer } from "node:stream/consumers";

const source = new URL("../app/server/pdf-stamp.server.ts", import.meta.url).href;
const { stampPdf } = /** @type {typeof import("../app/server/pdf-stamp.server")} */ (await import(source));
try {
  await stampPdf(await buffer(process.stdin), {
    band: [["Checked for stamping"]],
    watermark: "Checked for stamping",
    downloadId: "upload-check",
  });
  process.exit(0);
} catch {
  process.exit(1);
}
