/**
 * The audit trail exported for an examiner: JSON Lines, one row a line with its chain hashes, and a
 * last line that signs every byte before it with HMAC-SHA256 under AUDIT_KEY. A changed byte fails
 * the signature; a row rewritten and re-signed without the key is impossible; the chain inside
 * still shows where the trail itself was broken before the export. Kept elsewhere, an export is
 * also the anchor the live trail is later held to (audit:verify --against).
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import fs from "node:fs/promises";
import { z } from "zod";
import { getEnv } from "~/server/env.server";
import {
  chainedRowsInOrder,
  checkChain,
  gapsRecordedByReseals,
  type ChainBreak,
  type ChainedRow,
} from "./audit-chain.server";

const SIGNATURE_ALGORITHM = "HMAC-SHA256";

const rowSchema = z.object({
  id: z.number().int(),
  actor_id: z.string().nullable(),
  actor_email: z.string().nullable(),
  action: z.string(),
  target_id: z.string().nullable(),
  target_email: z.string().nullable(),
  details: z.string().nullable(),
  ip: z.string().nullable(),
  at: z.number().int(),
  prev_hash: z.string().nullable(),
  hash: z.string().nullable(),
});

const signatureSchema = z.object({
  signature: z.object({ algorithm: z.literal(SIGNATURE_ALGORITHM), rows: z.number().int(), value: z.string() }),
});

/** The signature of the export's body: written line by line, so a trail of any length is never held whole. */
function newSignature() {
  return createHmac("sha256", getEnv().auditKey);
}

/**
 * The export's lines for `rows`, in the order given: each row, then the signature over every line
 * before it. Written line by line, so an export of any length is never held whole.
 */
export async function* exportLines(rows: AsyncIterable<ChainedRow>): AsyncGenerator<string> {
  const hmac = newSignature();
  let count = 0;
  for await (const row of rows) {
    const line = `${JSON.stringify(rowSchema.parse(row))}\n`;
    hmac.update(line);
    count += 1;
    yield line;
  }
  yield `${JSON.stringify({ signature: { algorithm: SIGNATURE_ALGORITHM, rows: count, value: hmac.digest("hex") } })}\n`;
}

/** Writes the stored trail to a new file (never over an existing one) and returns how many rows it holds. */
export async function exportAuditTrail(file: string): Promise<{ rows: number }> {
  const handle = await fs.open(file, "wx", 0o600);
  try {
    let lines = 0;
    for await (const line of exportLines(chainedRowsInOrder())) {
      await handle.write(line);
      lines += 1;
    }
    await handle.sync();
    return { rows: lines - 1 };
  } finally {
    await handle.close();
  }
}

export type ExportReport =
  | { ok: true; rows: number; last: { id: number; at: number } | null; exported: ChainedRow[] }
  | { ok: false; problem: "unreadable" | "unsigned" | "signature" }
  | ({ ok: false; rows: number } & ChainBreak);

/** Checks an export: its signature first, then the chain of the rows it carries. */
export async function verifyAuditExport(file: string): Promise<ExportReport> {
  let text: string;
  try {
    text = await fs.readFile(file, "utf8");
  } catch {
    return { ok: false, problem: "unreadable" };
  }
  const lines = text.endsWith("\n") ? text.slice(0, -1).split("\n") : [];
  const signatureLine = lines.pop();
  const signed = signatureSchema.safeParse(safeJson(signatureLine));
  if (!signed.success) return { ok: false, problem: "unsigned" };

  const body = lines.map((line) => `${line}\n`).join("");
  const expected = newSignature().update(body).digest();
  const given = Buffer.from(signed.data.signature.value, "hex");
  if (
    given.length !== expected.length ||
    !timingSafeEqual(given, expected) ||
    signed.data.signature.rows !== lines.length
  ) {
    return { ok: false, problem: "signature" };
  }

  const rows: ChainedRow[] = [];
  for (const line of lines) {
    const row = rowSchema.safeParse(safeJson(line));
    // A signed file with a malformed row was signed that way: the signature covers the key's holder only.
    if (!row.success) return { ok: false, problem: "unreadable" };
    rows.push(row.data);
  }
  const idOfHash = new Map(rows.flatMap((row) => (row.hash ? [[row.hash, row.id] as const] : [])));
  const report = await checkChain(rows, async (hash) => idOfHash.get(hash), gapsRecordedByReseals(rows));
  return report.ok ? { ...report, exported: rows } : report;
}

function safeJson(line: string | undefined): unknown {
  if (line === undefined) return undefined;
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}
