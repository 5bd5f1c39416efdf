// @ts-check
// PostgreSQL's migration 019, the same column as SQLite's (../019_address_lines.js says why).
export { down, up } from "../019_address_lines.js";
