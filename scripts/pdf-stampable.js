// @ts-check
// Whether the PDF on stdin takes a stamp, and at what cost: the upload check of
// app/models/library/pdf-stamp-check.server.ts, run in a process of its own so that a large PDF, which pdf-lib holds
// whole and copies while it stamps, never weighs on the server's memory. It stamps the PDF once, as an
// investor's copy is stamped, and writes one line of JSON (a StampCheckFinding) before it exits: 0 when the
// PDF is fit to publish, 1 when not. It imports the app's own modules from their source (Node 24 strips
// their types), so they must keep to plain imports.
import { buffer } from "node:stream/consumers";

const stamping = new URL("../app/server/pdf-stamp.server.ts", import.meta.url).href;
const limits = new URL("../app/lib/material-limits.ts", import.meta.url).href;
const { stampPdfCounted, PdfTooCostly } = /** @type {typeof import("../app/server/pdf-stamp.server")} */ (
  await import(stamping)
);
const { PDF_STAMP_LIMITS } = /** @type {typeof import("../app/lib/material-limits")} */ (await import(limits));

/** @param {import("../app/models/library/pdf-stamp-check.server").StampCheckFinding} finding */
function answer(finding) {
  process.stdout.write(`${JSON.stringify(finding)}\n`, () => process.exit(finding.verdict === "stampable" ? 0 : 1));
}

const pdf = await buffer(process.stdin);
const started = performance.now();
try {
  const { pages, inflatedBytes } = await stampPdfCounted(pdf, {
    band: [["Checked for stamping"]],
    watermark: "Checked for stamping",
    downloadId: "upload-check",
  });
  const stampMs = Math.round(performance.now() - started);
  answer({ verdict: stampMs > PDF_STAMP_LIMITS.stampMs ? "too-slow" : "stampable", pages, inflatedBytes, stampMs });
} catch (error) {
  const stampMs = Math.round(performance.now() - started);
  if (error instanceof PdfTooCostly && error.reason === "pages")
    answer({ verdict: "too-many-pages", pages: error.amount, stampMs });
  else if (error instanceof PdfTooCostly) answer({ verdict: "too-much-content", inflatedBytes: error.amount, stampMs });
  else answer({ verdict: "unreadable", stampMs });
}
