/**
 * npm run audit:verify                      walks the stored audit trail's hash chain
 * npm run audit:verify -- --export <file>   checks an export's signature (AUDIT_KEY) and its chain
 *
 * Prints what it found; exits 0 for a whole chain, 1 for any break or a bad export, 2 for bad usage.
 * Uses the app's own modules and configuration (.env, DATABASE_PATH), and migrates the database first.
 */
import "dotenv/config";
import { adminContent } from "../app/content/admin";
import { describeChain, verifyAuditChain } from "../app/models/audit-chain.server";
import { verifyAuditExport } from "../app/models/audit-export.server";
import { closeDatabase, migrateDatabase } from "../app/server/db.server";

const words = adminContent.audit.export;
const USAGE = "Usage: npm run audit:verify [-- --export <file>]";

async function main(args: string[]): Promise<number> {
  if (args.length === 0) return verifyStoredTrail();
  if (args.length === 2 && args[0] === "--export") return verifyExport(args[1]);
  console.error(USAGE);
  return 2;
}

async function verifyStoredTrail(): Promise<number> {
  await migrateDatabase();
  try {
    const report = await verifyAuditChain();
    (report.ok ? console.log : console.error)(`Audit trail: ${describeChain(report).join(" ")}`);
    return report.ok ? 0 : 1;
  } finally {
    await closeDatabase();
  }
}

async function verifyExport(file: string): Promise<number> {
  const report = await verifyAuditExport(file);
  if (report.ok) {
    console.log(`${words.verified} ${describeChain(report).join(" ")}`);
    return 0;
  }
  if ("problem" in report && !("rowId" in report)) {
    console.error(words[report.problem]);
    return 1;
  }
  console.error(`The export's signature matches, but its chain is broken. ${describeChain(report).join(" ")}`);
  return 1;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`audit:verify failed: ${(error as Error).message}`);
    process.exit(1);
  },
);
