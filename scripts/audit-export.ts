/**
 * npm run audit:export -- <file>
 *
 * Writes the audit trail to a new file as JSON Lines, one row a line with its chain hashes, and
 * signs the file with AUDIT_KEY (HMAC-SHA256) on its last line. `npm run audit:verify -- --export
 * <file>` checks it. Uses the app's own configuration (.env, DATABASE_PATH).
 */
import "dotenv/config";
import { adminContent } from "../app/content/admin";
import { exportAuditTrail } from "../app/models/audit/audit-export.server";
import { closeDatabase, migrateDatabase } from "../app/server/db.server";

// Whatever this writes (the database, a key, a copy) is its user's alone.
process.umask(0o077);

const words = adminContent.audit.export;

async function main(args: string[]): Promise<number> {
  if (args.length !== 1 || args[0].startsWith("-")) {
    console.error(words.usage);
    return 2;
  }
  const [file] = args;
  await migrateDatabase();
  try {
    const { rows } = await exportAuditTrail(file);
    console.log(words.written(rows, file));
    return 0;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") {
      console.error(words.exists(file));
      return 1;
    }
    throw error;
  } finally {
    await closeDatabase();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`audit:export failed: ${(error as Error).message}`);
    process.exit(1);
  },
);
