/**
 * What a materials upload must be, judged from its bytes, never from its name or declared type: a PDF
 * starts with `%PDF-`, an MP4 has `ftyp` at byte 4, a WebVTT file starts with `WEBVTT`. A PDF must also
 * parse and take a stamp, since every investor's copy is stamped (app/server/pdf-stamp.server.ts).
 */
import { type ChildProcessByStdio, spawn } from "node:child_process";
import { once } from "node:events";
import path from "node:path";
import type { Writable } from "node:stream";
import { MATERIAL_LIMITS } from "~/lib/material-limits";
import type { DocumentKind } from "~/server/db.server";
import { STAMP_HEAP_MB } from "~/server/stamp-pool.server";

export { MATERIAL_LIMITS };

export const MATERIAL_CONTENT_TYPES = { pdf: "application/pdf", video: "video/mp4", captions: "text/vtt" } as const;

const ascii = (head: Uint8Array, from: number, to: number) => Buffer.from(head.subarray(from, to)).toString("latin1");

export function looksLikePdf(head: Uint8Array) {
  return ascii(head, 0, 5) === "%PDF-";
}

export function looksLikeMp4(head: Uint8Array) {
  return ascii(head, 4, 8) === "ftyp";
}

export function looksLikeWebVtt(head: Uint8Array) {
  const text = ascii(head, 0, 10).replace(/^\xEF\xBB\xBF/, "");
  return /^WEBVTT(?:$|[ \t\r\n])/.test(text);
}

/** The kind an upload's first bytes say it is, or null for anything else. */
export function sniffDocumentKind(head: Uint8Array): DocumentKind | null {
  if (looksLikePdf(head)) return "pdf";
  if (looksLikeMp4(head)) return "video";
  return null;
}

/** How long the stamping check's process may take, once the last byte is in, before it is killed and the PDF refused. */
const STAMP_CHECK_TIMEOUT_MS = 30_000;

/**
 * Whether a PDF parses and takes a stamp, as each investor's copy will. pdf-lib holds a PDF whole and
 * copies it as it stamps (a 20 MiB upload raised the server's peak memory by some 60 MiB), so the check
 * runs in a child process (scripts/pdf-stampable.js) fed the upload's own pieces as they stream in: the
 * server neither holds the file nor reads it back, and a PDF built to exhaust memory or time only ends
 * that process. Whether the file is a PDF at all is told by its first five bytes; for anything else no
 * process starts and there is no verdict. The time limit runs from the last byte, so a slow upload is not
 * taken for a slow check.
 */
export class PdfStampCheck {
  private early: Uint8Array[] = [];
  private earlyBytes = 0;
  private decided = false;
  private check: { child: ChildProcessByStdio<Writable, null, null>; exited: Promise<number | null> } | null = null;

  constructor(private readonly timeoutMs = STAMP_CHECK_TIMEOUT_MS) {}

  /** Hands on the next piece, resolving once the process can take more (or is gone). */
  async feed(piece: Uint8Array) {
    if (!this.decided) {
      this.early.push(piece);
      this.earlyBytes += piece.byteLength;
      if (this.earlyBytes >= PDF_MAGIC_BYTES) await this.decide();
      return;
    }
    if (this.check && !this.check.child.stdin.write(piece))
      await Promise.race([once(this.check.child.stdin, "drain").catch(() => {}), this.check.exited]);
  }

  /** True or false for a PDF, once every piece was fed; null for a file that is not one. */
  async verdict(): Promise<boolean | null> {
    if (!this.decided) await this.decide();
    if (!this.check) return null;
    const { child, exited } = this.check;
    const timer = setTimeout(() => child.kill("SIGKILL"), this.timeoutMs);
    child.stdin.end();
    const code = await exited;
    clearTimeout(timer);
    return code === 0;
  }

  /** Stops the check of an upload that was refused or broke off. */
  cancel() {
    this.check?.child.kill("SIGKILL");
  }

  private async decide() {
    this.decided = true;
    const early = this.early;
    this.early = [];
    if (!looksLikePdf(Buffer.concat(early))) return;
    this.check = startCheckProcess();
    for (const piece of early) await this.feed(piece);
  }
}

const PDF_MAGIC_BYTES = "%PDF-".length;

function startCheckProcess() {
  const script = path.resolve(process.cwd(), "scripts/pdf-stampable.js");
  const child: ChildProcessByStdio<Writable, null, null> = spawn(
    process.execPath,
    [`--max-old-space-size=${STAMP_HEAP_MB}`, script],
    { env: { NODE_ENV: process.env.NODE_ENV }, stdio: ["pipe", "ignore", "ignore"] },
  );
  const exited = new Promise<number | null>((resolve) => {
    child.once("error", () => resolve(null));
    child.once("close", (code) => resolve(code));
  });
  // A child that gave up (or was killed) before reading every byte closes its stdin: not an error here.
  child.stdin.on("error", () => {});
  return { child, exited };
}

/**
 * Walks an MP4's top-level boxes as its bytes stream past, so that a video cut off mid-upload (a
 * multipart body can end cleanly at any byte) is told from a whole one without reading it back: a
 * whole file starts with `ftyp`, holds a `moov`, and its last box ends exactly at its last byte.
 */
export class Mp4Boxes {
  private seen = 0;
  private nextBox = 0;
  private header: number[] = [];
  private toTheEnd = false;
  private broken = false;
  private readonly types: string[] = [];

  feed(piece: Uint8Array) {
    const end = this.seen + piece.byteLength;
    let position = this.seen;
    while (position < end && !this.toTheEnd && !this.broken) {
      if (position < this.nextBox) {
        position = Math.min(end, this.nextBox);
        continue;
      }
      this.header.push(piece[position - this.seen]);
      position += 1;
      this.readHeader();
    }
    this.seen = end;
  }

  /** A box's header is its size (32 bits; 1: a 64-bit size follows the type; 0: to the end of the file) and type. */
  private readHeader() {
    const bytes = Buffer.from(this.header);
    if (bytes.byteLength === 8) {
      const size = bytes.readUInt32BE(0);
      if (size === 1) return;
      if (size === 0) this.toTheEnd = true;
      else if (size < 8) this.broken = true;
      else this.nextBox += size;
    } else if (bytes.byteLength === 16) {
      const size = Number(bytes.readBigUInt64BE(8));
      if (size < 16) this.broken = true;
      else this.nextBox += size;
    } else return;
    this.types.push(bytes.toString("latin1", 4, 8));
    this.header = [];
  }

  isWhole() {
    const ended = this.toTheEnd || (this.header.length === 0 && this.nextBox === this.seen);
    return !this.broken && ended && this.types[0] === "ftyp" && this.types.includes("moov");
  }
}
