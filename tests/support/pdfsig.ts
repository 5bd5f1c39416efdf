/** poppler's pdfsig on a PDF: an independent reader's verdict on its digital signatures. */
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";

export async function pdfsig(bytes: Uint8Array): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pdfsig-"));
  const file = path.join(dir, "signed.pdf");
  fs.writeFileSync(file, bytes);
  try {
    // pdfsig exits non-zero for a signature that does not verify; its report is what the tests read.
    const { stdout } = await promisify(execFile)("pdfsig", [file]).catch((failed: { stdout: string }) => failed);
    return stdout;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
