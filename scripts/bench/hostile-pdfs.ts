/**
 * PDFs built to make every stamped copy costly (issue 49), uploaded through the API as an administrator would:
 * 3000 empty pages, and deflate bombs whose pages' content inflates past the document's limit. Each row says
 * whether the upload was refused (and how fast, and what it cost the server) or kept, when each copy's cost is
 * bounded only by the stamping's own limits.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { deflateBombPdf, manyPagesPdf } from "../../tests/support/hostile-pdfs";
import { measuredUpload } from "./materials";
import type { Row } from "./report";
import { ADMIN } from "./seed";
import type { RunningServer } from "./server";
import { apiAccessToken } from "./session";

const MIB = 1024 * 1024;
/** The server's memory an upload of a small hostile PDF may add: its check runs in a process of its own. */
const RSS_TARGET_MIB = 50;

export async function hostilePdfs(run: { server: RunningServer; rows: Row[] }) {
  const temp = fs.mkdtempSync(path.join(os.tmpdir(), "ats-bench-hostile-"));
  try {
    const accessToken = await apiAccessToken(ADMIN);
    const files = [
      { name: "3000 pages", bytes: manyPagesPdf(3000) },
      { name: "deflate bomb, 4 pages of 12 MiB", bytes: await deflateBombPdf({ pages: 4, mibEach: 12 }) },
      { name: "deflate bomb, 1 page of 120 MiB", bytes: await deflateBombPdf({ pages: 1, mibEach: 120 }) },
    ];
    for (const { name, bytes } of files) {
      const file = path.join(temp, "hostile.pdf");
      fs.writeFileSync(file, bytes);
      const sent = await measuredUpload(run.server, file, accessToken);
      const outcome =
        sent.status === 400 ? "refused (400)" : `kept (${sent.status}): bounded by stamping's limits only`;
      run.rows.push({
        figure: `hostile PDF upload: ${name}, ${(bytes.byteLength / 1024).toFixed(0)} KB`,
        value: `${outcome} in ${(sent.ms / 1000).toFixed(1)} s; server RSS +${(sent.growth / MIB).toFixed(1)} MiB`,
        target: `refused; RSS growth ≤ ${RSS_TARGET_MIB} MiB`,
        pass: sent.status === 400 && sent.growth <= RSS_TARGET_MIB * MIB,
      });
    }
  } finally {
    fs.rmSync(temp, { recursive: true, force: true });
  }
}
