// @ts-check
// PostgreSQL's static list of migrations (see 001_baseline.js for how it keeps step with SQLite's).
import * as m001 from "./001_baseline.js";

/** @type {Record<string, import("kysely/migration").Migration>} */
export const migrations = {
  "001_baseline": m001,
};
