import type { NdaFile } from "~/models/nda/nda-document.server";

/** An NDA's PDF as an answer: shown in the browser, kept by no shared cache, named by its hash. */
export function ndaPdfAnswer(file: NdaFile, disposition: "inline" | "attachment" = "inline") {
  return new Response(new Uint8Array(file.bytes), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `${disposition}; filename="${file.fileName}"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
      ETag: `"${file.sha256}"`,
    },
  });
}
