// @ts-check
// How an audit row is sealed into the hash chain: a stored format, shared by the migrations that
// sealed the rows already there and by the app (which seals each new row). Changing it would break
// every chain already stored: a new format needs a new migration.
//
// Migration 008 sealed the trail with SHA-256; migration 010 re-sealed it with HMAC-SHA256 under a
// key derived from AUDIT_KEY, so that nobody without the key can recompute the chain after editing
// or cutting it. The SHA-256 form stays here for 008 and for 010's check of what it re-sealed.
import { createHash, createHmac } from "node:crypto";

/** The previous hash of the first row in the chain. */
export const GENESIS_HASH = "0".repeat(64);

/** A stored row's columns, in order: its id, the content its hash covers, then the chain's two hashes. */
export const AUDIT_ROW_COLUMNS = /** @type {const} */ ([
  "id",
  "actor_id",
  "actor_email",
  "action",
  "target_id",
  "target_email",
  "details",
  "ip",
  "at",
  "prev_hash",
  "hash",
]);

/** What the re-seal's own row is recorded as. */
export const RESEAL_ACTION = "audit.resealed";

/**
 * The columns a row's hash covers, in this order. The id is left out on purpose: the chain, not
 * the id, says where a row belongs, so a row moved to another id shows as out of order.
 * @typedef {{
 *   actor_id: string | null;
 *   actor_email: string | null;
 *   action: string;
 *   target_id: string | null;
 *   target_email: string | null;
 *   details: string | null;
 *   ip: string | null;
 *   at: number;
 * }} ChainedContent
 */

/**
 * @param {string} prevHash
 * @param {ChainedContent} row
 */
function sealedText(prevHash, row) {
  const content = JSON.stringify([
    row.actor_id,
    row.actor_email,
    row.action,
    row.target_id,
    row.target_email,
    row.details,
    row.ip,
    Number(row.at),
  ]);
  return `${prevHash}\n${content}`;
}

/**
 * The keyless seal of migration 008: SHA-256, in hex, over the previous row's hash and this row's content.
 * @param {string} prevHash
 * @param {ChainedContent} row
 * @returns {string}
 */
export function sha256RowHash(prevHash, row) {
  return createHash("sha256").update(sealedText(prevHash, row)).digest("hex");
}

/**
 * The chain's own key, derived from AUDIT_KEY, so that the key which signs exports never signs a row.
 * @param {string} auditKey
 * @returns {Buffer}
 */
export function chainKeyOf(auditKey) {
  return createHmac("sha256", auditKey).update("audit-chain:v1").digest();
}

/**
 * The keyed seal: HMAC-SHA256, in hex, under the chain key, over the previous row's hash and this row's content.
 * @param {Buffer} chainKey
 * @param {string} prevHash
 * @param {ChainedContent} row
 * @returns {string}
 */
export function auditRowHash(chainKey, prevHash, row) {
  return createHmac("sha256", chainKey).update(sealedText(prevHash, row)).digest("hex");
}

/**
 * Migration 010's work, the same on both engines: checks the keyless chain as it stands, re-seals
 * every row in id order under the key, and appends a row that records the re-seal (how many rows,
 * the old head's hash, whether the old chain held, and any gaps in the ids it found, which the
 * check then accepts as older than the keyed chain).
 * @param {import("kysely").Kysely<any>} db
 * @param {string | undefined} auditKey
 */
export async function resealUnderKey(db, auditKey) {
  // Read whole before the first update: better-sqlite3 runs no statement while another's rows are open.
  const rows = /** @type {(ChainedContent & { id: number; prev_hash: string | null; hash: string | null })[]} */ (
    await db.selectFrom("audit_events").selectAll().orderBy("id").execute()
  );
  if (rows.length === 0) return;
  if (!auditKey) throw new Error("Re-sealing the audit trail needs AUDIT_KEY.");

  /** @type {string} */
  let previousChain = "intact";
  let expected = GENESIS_HASH;
  /** @type {number[]} */
  const gaps = [];
  for (const [index, row] of rows.entries()) {
    if (index > 0 && Number(row.id) !== Number(rows[index - 1].id) + 1) gaps.push(Number(row.id));
    if (previousChain !== "intact") continue;
    if (row.hash === null || row.prev_hash !== expected || sha256RowHash(row.prev_hash, row) !== row.hash) {
      previousChain = `broken at row ${row.id}`;
    }
    expected = row.hash ?? "";
  }

  const key = chainKeyOf(auditKey);
  let prevHash = GENESIS_HASH;
  for (const row of rows) {
    const hash = auditRowHash(key, prevHash, row);
    await db.updateTable("audit_events").set({ prev_hash: prevHash, hash }).where("id", "=", row.id).execute();
    prevHash = hash;
  }
  const last = rows[rows.length - 1];
  /** @type {ChainedContent} */
  const reseal = {
    actor_id: null,
    actor_email: "migration 010",
    action: RESEAL_ACTION,
    target_id: null,
    target_email: null,
    details: JSON.stringify({
      seal: "HMAC-SHA256",
      rows: rows.length,
      previousSeal: "SHA-256",
      previousHead: last.hash,
      previousChain,
      gaps,
    }),
    ip: null,
    at: Date.now(),
  };
  await db
    .insertInto("audit_events")
    .values({ id: Number(last.id) + 1, ...reseal, prev_hash: prevHash, hash: auditRowHash(key, prevHash, reseal) })
    .execute();
}
