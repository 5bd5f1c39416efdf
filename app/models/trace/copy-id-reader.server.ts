/**
 * Reads the download id a PDF found outside carries (scripts/pdf-copy-id.js), fed as it streams in: the file is
 * never stored nor held whole by the server, and a PDF built to exhaust memory or time only ends that process.
 */
import { PdfProcess } from "~/models/library/pdf-process.server";

/** How long the reading may take once the last byte is in. */
export const COPY_ID_TIMEOUT_MS = 30_000;

export type CopyIdReading =
  | { kind: "not-pdf" }
  | { kind: "unreadable" }
  | { kind: "no-id" }
  | { kind: "id"; downloadId: string; from: "metadata" | "stamp" };

export class CopyIdReader {
  private readonly process = new PdfProcess("scripts/pdf-copy-id.js", COPY_ID_TIMEOUT_MS);

  feed(piece: Uint8Array) {
    return this.process.feed(piece);
  }

  cancel() {
    return this.process.cancel();
  }

  /** What the file carries, once every piece was fed. */
  async reading(): Promise<CopyIdReading> {
    const end = await this.process.end();
    if (!end) return { kind: "not-pdf" };
    if (end.outlasted || end.code !== 0) return { kind: "unreadable" };
    try {
      const found = JSON.parse(end.output) as { downloadId: string | null; from: "metadata" | "stamp" | null };
      return found.downloadId && found.from
        ? { kind: "id", downloadId: found.downloadId, from: found.from }
        : { kind: "no-id" };
    } catch {
      return { kind: "unreadable" };
    }
  }
}
