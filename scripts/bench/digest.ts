/**
 * The daily digest (issue 53, item 5) for 10,000 investors and 100 documents: each investor opened ten of the
 * hundred documents in the digest's day (100,000 openings). The library is topped up to a hundred documents
 * (their versions share the first PDF's blob: the digest reads no file). The digest runs in a process of its
 * own (digest-child.ts), so its time and the memory it adds are its own, not the server's.
 */
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { root } from "./config";
import type { Row } from "./report";
import { ADMIN, databaseEnv, seedInvestorsUpTo, withDatabase, type BenchDatabase } from "./seed";
import { serverEnv } from "./server";

const INVESTORS = 10_000;
const DOCUMENTS = 100;
const OPENED_EACH = 10;
const HOUR_MS = 3_600_000;
const TARGET_MS = 2_000;
const TARGET_ADDED_MB = 64;
const MB = 1024 * 1024;

/** Tops the library up to DOCUMENTS and writes the day's openings; returns the digest's hour. */
async function seedDay(database: BenchDatabase): Promise<number> {
  await seedInvestorsUpTo(database, INVESTORS);
  const due = Math.floor(Date.now() / HOUR_MS) * HOUR_MS - HOUR_MS;
  await withDatabase(database, async (db) => {
    const [pdf] = (await db.all(
      "select v.blob_id, v.size, v.sha256 from document_versions v join documents d on d.id = v.document_id where d.kind = 'pdf' limit 1",
    )) as { blob_id: string; size: number; sha256: string }[];
    const [{ n: have }] = await db.all("select count(*) as n from documents");
    const documents: unknown[][] = [];
    const versions: unknown[][] = [];
    for (let n = Number(have); n < DOCUMENTS; n += 1) {
      const id = randomUUID();
      documents.push([id, `Digest document ${n + 1}`, "", "pdf", n + 1, "signed", 1, due, due]);
      versions.push([randomUUID(), id, 1, "bench.pdf", "application/pdf", pdf.size, pdf.sha256, pdf.blob_id, due]);
    }
    await db.insertMany(
      "documents",
      ["id", "title", "description", "kind", "position", "audience", "published", "created_at", "updated_at"],
      documents,
    );
    await db.insertMany(
      "document_versions",
      ["id", "document_id", "number", "file_name", "content_type", "size", "sha256", "blob_id", "created_at"],
      versions,
    );
    const library = (await db.all(
      "select d.id, v.id as version from documents d join document_versions v on v.document_id = d.id order by d.position limit ?",
      [DOCUMENTS],
    )) as { id: string; version: string }[];
    const investors = (await db.all("select id from users where role = 'investor' order by created_at limit ?", [
      INVESTORS,
    ])) as { id: string }[];
    const openings: unknown[][] = [];
    investors.forEach(({ id }, i) => {
      for (let k = 0; k < OPENED_EACH; k += 1) {
        const document = library[(i * 7 + k * 13) % library.length];
        const at = due - 23 * HOUR_MS + (((i * OPENED_EACH + k) * 7919) % (22 * HOUR_MS));
        openings.push([randomUUID(), document.id, document.version, id, at]);
      }
    });
    await db.insertMany("document_opens", ["id", "document_id", "version_id", "user_id", "opened_at"], openings);
  });
  return due;
}

export async function digest(run: { database: BenchDatabase; rows: Row[] }) {
  const due = await seedDay(run.database);
  const child = spawnSync(process.execPath, ["--import", "tsx", path.join(root, "scripts/bench/digest-child.ts")], {
    cwd: root,
    env: {
      ...serverEnv(typeof run.database === "string" ? run.database : ""),
      ...databaseEnv(run.database),
      NODE_ENV: "test",
      SMTP_URL: "",
      METRICS: "off",
      DIGEST_DUE: String(due),
      DIGEST_ADMIN: ADMIN.email,
    },
    encoding: "utf8",
  });
  if (child.status !== 0) throw new Error(`The digest's process failed: ${child.stderr}`);
  const result = JSON.parse(child.stdout.trim().split("\n").at(-1)!) as {
    written: number;
    ms: number;
    rssBefore: number;
    peakRss: number;
    bytes: number;
  };
  const added = (result.peakRss - result.rssBefore) / MB;
  run.rows.push({
    figure: `daily digest (${INVESTORS.toLocaleString("en-US")} investors, ${DOCUMENTS} documents, ${(INVESTORS * OPENED_EACH).toLocaleString("en-US")} openings in its day)`,
    value: `${result.ms.toFixed(0)} ms, peak RSS ${(result.peakRss / MB).toFixed(0)} MB (+${added.toFixed(1)} MB), ${result.bytes} bytes`,
    target: `≤ ${TARGET_MS} ms, ≤ +${TARGET_ADDED_MB} MB`,
    pass: result.written === 1 && result.ms <= TARGET_MS && added <= TARGET_ADDED_MB,
  });
}
