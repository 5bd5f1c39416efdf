// @ts-check
// PostgreSQL's static list of migrations (see 001_baseline.js for how it keeps step with SQLite's).
import * as m001 from "./001_baseline.js";
import * as m002 from "./002_investor_counts_lock_order.js";

/** @type {Record<string, import("kysely/migration").Migration>} */
export const migrations = {
  "001_baseline": m001,
  "002_investor_counts_lock_order": m002,
};
