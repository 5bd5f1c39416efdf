// @ts-check
// How an audit row is sealed into the hash chain: a stored format, fixed by migration 008, shared by
// that migration (which seals the rows already there) and by the app (which seals each new row).
// Changing it would break every chain already stored: a new format needs a new migration.
import { createHash } from "node:crypto";

/** The previous hash of the first row in the chain. */
export const GENESIS_HASH = "0".repeat(64);

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
 * SHA-256, in hex, over the previous row's hash and this row's content.
 * @param {string} prevHash
 * @param {ChainedContent} row
 * @returns {string}
 */
export function auditRowHash(prevHash, row) {
  const content = JSON.stringify([
    row.actor_id,
    row.actor_email,
    row.action,
    row.target_id,
    row.target_email,
    row.details,
    row.ip,
    row.at,
  ]);
  return createHash("sha256").update(`${prevHash}\n${content}`).digest("hex");
}
