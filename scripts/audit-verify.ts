/**
 * npm run audit:verify                       walks the stored audit trail's keyed hash chain
 * npm run audit:verify -- --export <file>    checks an export's signature (AUDIT_KEY) and its chain
 * npm run audit:verify -- --against <file>   checks the export, then that the live trail still holds
 *                                            every row of it, unchanged and in order, and its own chain
 *
 * Prints what it found; exits 0 when everything holds, 1 for any break or a bad export, 2 for bad usage.
 * Uses the app's own modules and configuration (.env, DATABASE_PATH or DATABASE_URL, AUDIT_KEY), and
 * migrates the database first.
 */
import "dotenv/config";
import { adminContent } from "../app/content/admin";
import {
  compareWithExport,
  describeChain,
  describeComparison,
  verifyAuditChain,
} from "../app/models/audit/audit-chain.server";
import { verifyAuditExport, type ExportReport } from "../app/models/audit/audit-export.server";
import { closeDatabase, migrateDatabase } from "../app/server/db.server";

// Whatever this writes (the database, a key) is its user's alone.
process.umask(0o077);

const words = adminContent.audit.export;
const USAGE = "Usage: npm run audit:verify [-- --export <file> | --against <file>]";

async function main(args: string[]): Promise<number> {
  if (args.length === 0) return withDatabase(verifyStoredTrail);
  if (args.length === 2 && args[0] === "--export") return verifyExport(args[1]);
  if (args.length === 2 && args[0] === "--against") return withDatabase(() => verifyAgainst(args[1]));
  console.error(USAGE);
  return 2;
}

async function withDatabase(work: () => Promise<number>): Promise<number> {
  await migrateDatabase();
  try {
    return await work();
  } finally {
    await closeDatabase();
  }
}

async function verifyStoredTrail(): Promise<number> {
  const report = await verifyAuditChain();
  (report.ok ? console.log : console.error)(`Audit trail: ${describeChain(report).join(" ")}`);
  return report.ok ? 0 : 1;
}

async function verifyExport(file: string): Promise<number> {
  const report = await verifyAuditExport(file);
  return reportExport(report) ? 0 : 1;
}

/** The export must hold, the live trail must still hold the export, and the live chain must hold. */
async function verifyAgainst(file: string): Promise<number> {
  const report = await verifyAuditExport(file);
  if (!reportExport(report) || !report.ok) return 1;
  const comparison = await compareWithExport(report.exported);
  (comparison.ok ? console.log : console.error)(describeComparison(comparison));
  const live = await verifyStoredTrail();
  return comparison.ok && live === 0 ? 0 : 1;
}

/** Prints the export's check; true when it holds. */
function reportExport(report: ExportReport): boolean {
  if (report.ok) {
    console.log(`${words.verified} ${describeChain(report).join(" ")}`);
    return true;
  }
  if ("problem" in report && !("rowId" in report)) console.error(words[report.problem]);
  else console.error(`The export's signature matches, but its chain is broken. ${describeChain(report).join(" ")}`);
  return false;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`audit:verify failed: ${(error as Error).message}`);
    process.exit(1);
  },
);
