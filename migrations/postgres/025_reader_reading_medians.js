// @ts-check
// PostgreSQL's migration 025, the same indexes as SQLite's (../025_reader_reading_medians.js says why).
export { down, up } from "../025_reader_reading_medians.js";
