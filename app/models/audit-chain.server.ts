/**
 * The audit trail as a hash chain: each row holds the previous row's hash and a SHA-256 over that
 * and its own content (migrations/audit-chain.js). An edited, deleted, moved or slipped-in row
 * breaks the chain at that row, and `verifyAuditChain` says where and how.
 */
import { adminContent } from "~/content/admin";
import { formatRegistrationTime } from "~/lib/investor-table";
import { getDb } from "~/server/db.server";
import { asOnlyWriter } from "~/server/sql-dialect.server";
import { GENESIS_HASH, auditRowHash, type ChainedContent } from "../../migrations/audit-chain.js";

const words = adminContent.audit.chain;

export type ChainedRow = ChainedContent & { id: number; prev_hash: string | null; hash: string | null };

/** How a row breaks the chain, the first break being the one reported. */
export type ChainBreak =
  /** Its hash does not match its content: the row was edited. */
  | { problem: "changed"; rowId: number }
  /** It has no hash: the row was written around the chain. */
  | { problem: "unchained"; rowId: number }
  /** It follows a row that is no longer in the trail: that row was deleted (or rewritten with a new hash). */
  | { problem: "missing"; rowId: number }
  /** It follows a row that is elsewhere in the trail: rows were moved. */
  | { problem: "out_of_order"; rowId: number; follows: number };

export type ChainReport =
  { ok: true; rows: number; last: { id: number; at: number } | null } | ({ ok: false; rows: number } & ChainBreak);

/**
 * Appends a row at the head of the chain. The head's hash is read and the row written by the only
 * writer of the chain (SQLite's write lock, or PostgreSQL's advisory lock): a second writer, in this
 * process or another (create-admin, another instance), waits and then chains onto this row, never
 * onto the same head.
 */
export async function appendChainedRow(content: ChainedContent): Promise<void> {
  await asOnlyWriter(getDb(), "audit_events", async (db) => {
    const head = await db.selectFrom("audit_events").select("hash").orderBy("id", "desc").limit(1).executeTakeFirst();
    const prevHash = head?.hash ?? GENESIS_HASH;
    await db
      .insertInto("audit_events")
      .values({ ...content, prev_hash: prevHash, hash: auditRowHash(prevHash, content) })
      .execute();
  });
}

/**
 * Walks rows in the order they claim and reports the first break. `rowWithHash` finds the row a
 * misplaced row follows, which tells a moved row from a deleted one.
 */
export async function checkChain(
  rows: AsyncIterable<ChainedRow> | Iterable<ChainedRow>,
  rowWithHash: (hash: string) => Promise<number | undefined>,
): Promise<ChainReport> {
  let expectedPrev = GENESIS_HASH;
  let count = 0;
  let last: { id: number; at: number } | null = null;
  for await (const row of rows) {
    if (row.hash === null || row.prev_hash === null)
      return { ok: false, rows: count, problem: "unchained", rowId: row.id };
    if (auditRowHash(row.prev_hash, row) !== row.hash) {
      return { ok: false, rows: count, problem: "changed", rowId: row.id };
    }
    if (row.prev_hash !== expectedPrev) {
      const follows = await rowWithHash(row.prev_hash);
      return follows === undefined
        ? { ok: false, rows: count, problem: "missing", rowId: row.id }
        : { ok: false, rows: count, problem: "out_of_order", rowId: row.id, follows };
    }
    expectedPrev = row.hash;
    count += 1;
    last = { id: row.id, at: row.at };
  }
  return { ok: true, rows: count, last };
}

const BATCH = 1000;

/** Every audit row in id order, a batch at a time, so a long trail neither fills memory nor holds the database. */
export async function* chainedRowsInOrder(): AsyncGenerator<ChainedRow> {
  let lastId = 0;
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

/** Checks the whole stored trail. */
export async function verifyAuditChain(): Promise<ChainReport> {
  return checkChain(chainedRowsInOrder(), async (hash) => {
    const row = await getDb().selectFrom("audit_events").select("id").where("hash", "=", hash).executeTakeFirst();
    return row?.id;
  });
}

/** The report in words: one sentence for a whole chain; for a broken one, where and how, then what still holds. */
export function describeChain(report: ChainReport): string[] {
  if (report.ok) {
    if (!report.last) return [words.empty];
    const recorded = formatRegistrationTime(new Date(report.last.at).toISOString());
    return [words.intact(report.rows, report.last.id, recorded)];
  }
  const where =
    report.problem === "changed"
      ? words.changed(report.rowId)
      : report.problem === "unchained"
        ? words.unchained(report.rowId)
        : report.problem === "missing"
          ? words.missing(report.rowId)
          : words.outOfOrder(report.rowId, report.follows);
  return [words.broken, where, words.verifiedBefore(report.rows)];
}
