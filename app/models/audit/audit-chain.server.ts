/**
 * The audit trail as a keyed hash chain: each row holds the previous row's hash and an HMAC-SHA256,
 * under a key derived from AUDIT_KEY, over that and its own content (migrations/audit-chain.js). An
 * edited, deleted, moved or slipped-in row breaks the chain at that row, and nobody without the key
 * can compute a chain that hides it; `verifyAuditChain` says where and how. Ids count up by one, so a
 * row cut from the end is caught by an earlier export (`compareWithExport`), and a gap by the walk.
 */
import { adminContent } from "~/content/admin";
import { formatRegistrationTime } from "~/lib/investor-table";
import { getDb } from "~/server/db.server";
import { getEnv } from "~/server/env.server";
import type { OnlyWriter } from "~/server/sql-dialect.server";
import {
  AUDIT_ROW_COLUMNS,
  GENESIS_HASH,
  RESEAL_ACTION,
  auditRowHash,
  chainKeyOf,
  type ChainedContent,
} from "../../../migrations/audit-chain.js";

const words = adminContent.audit.chain;

export type ChainedRow = ChainedContent & { id: number; prev_hash: string | null; hash: string | null };

/** How a row breaks the chain, the first break being the one reported. */
export type ChainBreak =
  /** Its hash does not match its content under the key: the row was edited, or sealed without the key. */
  | { problem: "changed"; rowId: number }
  /** It has no hash: the row was written around the chain. */
  | { problem: "unchained"; rowId: number }
  /** It follows a row that is no longer in the trail: that row was deleted (or rewritten with a new hash). */
  | { problem: "missing"; rowId: number }
  /** It follows a row that is elsewhere in the trail: rows were moved. */
  | { problem: "out_of_order"; rowId: number; follows: number }
  /** Its id does not follow the row before's by one, and no re-seal recorded the gap. */
  | { problem: "gap"; rowId: number; after: number };

export type ChainReport =
  { ok: true; rows: number; last: { id: number; at: number } | null } | ({ ok: false; rows: number } & ChainBreak);

let chainKey: { auditKey: string; key: Buffer } | undefined;

/** The chain's key, derived from AUDIT_KEY once (and again if a test changes the setting). */
function currentChainKey(): Buffer {
  const { auditKey } = getEnv();
  if (chainKey?.auditKey !== auditKey) chainKey = { auditKey, key: chainKeyOf(auditKey) };
  return chainKey.key;
}

/** The name under which a transaction becomes the chain's only writer (`asOnlyWriter`). */
export const CHAIN_WRITER = "audit_events";

/**
 * Appends a row at the head of the chain, with the id after the head's, inside a transaction that is the
 * chain's only writer (`CHAIN_WRITER`: SQLite's write lock, or PostgreSQL's advisory lock): a second
 * writer, in this process or another (create-admin, another instance), waits and then chains onto this
 * row, never onto the same head, and a transaction rolled back leaves no gap in the ids.
 */
export async function appendChainedRowAsWriter(db: OnlyWriter, content: ChainedContent): Promise<void> {
  const key = currentChainKey();
  const head = await db
    .selectFrom("audit_events")
    .select(["id", "hash"])
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  const prevHash = head?.hash ?? GENESIS_HASH;
  await db
    .insertInto("audit_events")
    .values({
      id: Number(head?.id ?? 0) + 1,
      ...content,
      prev_hash: prevHash,
      hash: auditRowHash(key, prevHash, content),
    })
    .execute();
}

/**
 * The ids after a gap that a re-seal found and recorded (migration 010): older than the keyed chain,
 * they are accepted. A re-seal row is itself in the chain, so one forged to excuse a gap breaks it.
 */
export function gapsRecordedByReseals(rows: Iterable<Pick<ChainedRow, "action" | "details">>): Set<number> {
  const gaps = new Set<number>();
  for (const row of rows) {
    if (row.action !== RESEAL_ACTION || !row.details) continue;
    const recorded = (JSON.parse(row.details) as { gaps?: unknown }).gaps;
    if (Array.isArray(recorded)) for (const id of recorded) if (typeof id === "number") gaps.add(id);
  }
  return gaps;
}

/** Where a walk of the chain begins: at its start, or after a row already verified (its hash, id and time). */
export type ChainStart = { prevHash: string; last: { id: number; at: number } | null };

const FROM_GENESIS: ChainStart = { prevHash: GENESIS_HASH, last: null };

/**
 * Walks rows in the order they claim and reports the first break. `rowWithHash` finds the row a
 * misplaced row follows, which tells a moved row from a deleted one. From `start`, the report counts
 * the rows walked from there.
 */
export async function checkChain(
  rows: AsyncIterable<ChainedRow> | Iterable<ChainedRow>,
  rowWithHash: (hash: string) => Promise<number | undefined>,
  recordedGaps: Set<number> = new Set(),
  start: ChainStart = FROM_GENESIS,
): Promise<ChainReport> {
  const key = currentChainKey();
  let expectedPrev = start.prevHash;
  let count = 0;
  let last = start.last;
  for await (const row of rows) {
    const id = Number(row.id);
    if (row.hash === null || row.prev_hash === null) return { ok: false, rows: count, problem: "unchained", rowId: id };
    if (auditRowHash(key, row.prev_hash, row) !== row.hash) {
      return { ok: false, rows: count, problem: "changed", rowId: id };
    }
    if (row.prev_hash !== expectedPrev) {
      const follows = await rowWithHash(row.prev_hash);
      return follows === undefined
        ? { ok: false, rows: count, problem: "missing", rowId: id }
        : { ok: false, rows: count, problem: "out_of_order", rowId: id, follows };
    }
    if (last && id !== last.id + 1 && !recordedGaps.has(id)) {
      return { ok: false, rows: count, problem: "gap", rowId: id, after: last.id };
    }
    expectedPrev = row.hash;
    count += 1;
    last = { id, at: Number(row.at) };
  }
  return { ok: true, rows: count, last };
}

const BATCH = 1000;

/**
 * Every audit row in id order (or those after `afterId`), a batch at a time, so a long trail neither
 * fills memory nor holds the database.
 */
export async function* chainedRowsInOrder(afterId = 0): AsyncGenerator<ChainedRow> {
  let lastId = afterId;
  for (;;) {
    const rows = await getDb()
      .selectFrom("audit_events")
      .selectAll()
      .where("id", ">", lastId)
      .orderBy("id")
      .limit(BATCH)
      .execute();
    yield* rows;
    if (rows.length < BATCH) return;
    lastId = rows[rows.length - 1].id;
  }
}

/** The hash row `id` holds now (undefined: no such row). */
export async function storedHashOf(id: number): Promise<string | null | undefined> {
  const row = await getDb().selectFrom("audit_events").select("hash").where("id", "=", id).executeTakeFirst();
  return row?.hash;
}

/** Checks the whole stored trail; the metrics' view of the chain (audit-chain-watch.server.ts) learns the outcome. */
export async function verifyAuditChain(): Promise<ChainReport> {
  return walkStoredChain(null);
}

/** A row the chain was verified up to. */
export type VerifiedRow = { id: number; at: number; hash: string };

/** What a walk of the stored trail found: the report, the last row it verified (null: none), and whether it began at the start. */
export type StoredChainWalk = { report: ChainReport; lastVerified: VerifiedRow | null; whole: boolean };

const walkListeners = new Set<(walk: StoredChainWalk) => void>();

/** Tells `listener` the outcome of every walk of the stored trail (the audit page's and the metrics' checks). */
export function onChainWalk(listener: (walk: StoredChainWalk) => void): () => void {
  walkListeners.add(listener);
  return () => walkListeners.delete(listener);
}

/** Gaps a re-seal recorded; migrations alone write re-seals, so what a process first reads stays true. */
export async function recordedGaps(): Promise<Set<number>> {
  const reseals = await getDb()
    .selectFrom("audit_events")
    .select(["action", "details"])
    .where("action", "=", RESEAL_ACTION)
    .execute();
  return gapsRecordedByReseals(reseals);
}

/**
 * Walks the stored trail from its start (`from` null) or from the row after a verified one, and
 * reports the first break; its listeners also learn the last row it verified, to start the next walk from.
 */
export async function walkStoredChain(from: VerifiedRow | null, gaps?: Set<number>): Promise<ChainReport> {
  let lastVerified = from;
  let current: ChainedRow | undefined;
  async function* rows() {
    for await (const row of chainedRowsInOrder(from?.id ?? 0)) {
      // checkChain asks for the next row only once the one before it has passed.
      if (current) lastVerified = { id: Number(current.id), at: Number(current.at), hash: current.hash! };
      current = row;
      yield row;
    }
    if (current) lastVerified = { id: Number(current.id), at: Number(current.at), hash: current.hash! };
  }
  const report = await checkChain(
    rows(),
    async (hash) => {
      const row = await getDb().selectFrom("audit_events").select("id").where("hash", "=", hash).executeTakeFirst();
      return row?.id;
    },
    gaps ?? (await recordedGaps()),
    from ? { prevHash: from.hash, last: { id: from.id, at: from.at } } : FROM_GENESIS,
  );
  for (const listener of walkListeners) listener({ report, lastVerified, whole: from === null });
  return report;
}

/** How the live trail stands against an earlier export: every row of it still there, unchanged, in order. */
export type ExportComparison =
  | { ok: true; rows: number; lastId: number | null }
  /** The trail ends before the export's row: rows were cut from its end. */
  | { ok: false; problem: "cut"; rowId: number; liveLastId: number | null }
  /** The export's row is no longer in the trail, though rows after it are: it was deleted. */
  | { ok: false; problem: "deleted"; rowId: number }
  /** The trail's row at the export's id differs from the export's: it was rewritten. */
  | { ok: false; problem: "rewritten"; rowId: number };

/** Walks the export's rows beside the live trail's, in id order, and reports the first row that is not as exported. */
export async function compareWithExport(exported: ChainedRow[]): Promise<ExportComparison> {
  const live = chainedRowsInOrder()[Symbol.asyncIterator]();
  let liveLastId: number | null = null;
  for (const row of exported) {
    const next = await live.next();
    if (next.done) return { ok: false, problem: "cut", rowId: Number(row.id), liveLastId };
    liveLastId = Number(next.value.id);
    if (liveLastId > Number(row.id)) return { ok: false, problem: "deleted", rowId: Number(row.id) };
    if (!sameRow(row, next.value)) return { ok: false, problem: "rewritten", rowId: Number(row.id) };
  }
  await live.return?.(undefined);
  return { ok: true, rows: exported.length, lastId: exported.length ? Number(exported[exported.length - 1].id) : null };
}

function sameRow(a: ChainedRow, b: ChainedRow): boolean {
  return AUDIT_ROW_COLUMNS.every((column) => String(a[column]) === String(b[column]));
}

/** The report in words: one sentence for a whole chain; for a broken one, where and how, then what still holds. */
export function describeChain(report: ChainReport): string[] {
  if (report.ok) {
    if (!report.last) return [words.empty];
    const recorded = formatRegistrationTime(new Date(report.last.at).toISOString());
    return [words.intact(report.rows, report.last.id, recorded)];
  }
  return [words.broken, describeBreak(report), words.verifiedBefore(report.rows)];
}

/** Where and how the chain breaks, in one sentence. */
export function describeBreak(report: ChainBreak): string {
  return report.problem === "changed"
    ? words.changed(report.rowId)
    : report.problem === "unchained"
      ? words.unchained(report.rowId)
      : report.problem === "missing"
        ? words.missing(report.rowId)
        : report.problem === "gap"
          ? words.gap(report.rowId, report.after)
          : words.outOfOrder(report.rowId, report.follows);
}

/** The comparison with an export in words. */
export function describeComparison(comparison: ExportComparison): string {
  if (comparison.ok) return words.holdsExport(comparison.rows, comparison.lastId);
  if (comparison.problem === "cut") return words.cut(comparison.rowId, comparison.liveLastId);
  return comparison.problem === "deleted" ? words.deleted(comparison.rowId) : words.rewritten(comparison.rowId);
}
