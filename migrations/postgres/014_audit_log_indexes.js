// @ts-check
// PostgreSQL's migration 014, the same indexes as SQLite's (../014_audit_log_indexes.js says why).
export { down, up } from "../014_audit_log_indexes.js";
