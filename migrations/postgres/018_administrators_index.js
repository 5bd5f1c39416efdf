// @ts-check
// PostgreSQL's migration 018, the same index as SQLite's (../018_administrators_index.js says why).
export { down, up } from "../018_administrators_index.js";
