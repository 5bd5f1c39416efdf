/**
 * The daily digest (issue 53, item 5) for 10,000 investors and 100 documents: each investor opened ten of the
 * hundred documents in the digest's day (100,000 openings). The library is topped up to a hundred documents
 * (their versions share the first PDF's blob: the digest reads no file). The digest runs in a process of its
 * own (digest-child.ts), so its time and the memory it adds are its own, not the server's.
 * Its time is judged beside the same digest a day earlier, when a tenth of the investors read (1,000 investors,
 * 10,000 openings), measured in the same run: the cost per investor may grow by half (a shared machine's load
 * moves any absolute time several-fold). The memory it adds is judged as is, in a process with the server's own
 * V8 flags (see digestAt).
 */
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { SERVER_NODE_FLAGS } from "../serve.js";
import { root } from "./config";
import type { Row } from "./report";
import { ADMIN, databaseEnv, seedInvestorsUpTo, withDatabase, type BenchDatabase } from "./seed";
import { serverEnv } from "./server";

const INVESTORS = 10_000;
const SMALL_INVESTORS = 1_000;
const DOCUMENTS = 100;
const OPENED_EACH = 10;
const HOUR_MS = 3_600_000;
/** The large digest's time per investor over the small one's. */
const PER_INVESTOR_LIMIT = 1.5;
const TARGET_ADDED_MB = 64;
const MB = 1024 * 1024;

const fmt = (value: number, digits = 1) => value.toFixed(digits);

/** Tops the library up to DOCUMENTS and writes the openings of the day before `due` by the first `readers` investors. */
async function seedDay(database: BenchDatabase, readers: number, due: number) {
  await seedInvestorsUpTo(database, INVESTORS);
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
      readers,
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
}

type DigestResult = { written: number; ms: number; rssBefore: number; peakRss: number; bytes: number };

/** The digest due at `due`, written in a process of its own. */
function digestAt(database: BenchDatabase, due: number): DigestResult {
  // With the server's own V8 flags, as the server's tick runs it: among them no GC helper threads, without which
  // the peak no longer depends on whether a busy machine lets concurrent marking keep up (+55 MB quiet, +66 MB
  // beside a CPU-bound process; +86 to +134 MB on PostgreSQL).
  const args = [...SERVER_NODE_FLAGS, "--import", "tsx", path.join(root, "scripts/bench/digest-child.ts")];
  const child = spawnSync(process.execPath, args, {
    cwd: root,
    env: {
      ...serverEnv(typeof database === "string" ? database : ""),
      ...databaseEnv(database),
      NODE_ENV: "test",
      SMTP_URL: "",
      METRICS: "off",
      DIGEST_DUE: String(due),
      DIGEST_ADMIN: ADMIN.email,
    },
    encoding: "utf8",
  });
  if (child.status !== 0) throw new Error(`The digest's process failed: ${child.stderr}`);
  return JSON.parse(child.stdout.trim().split("\n").at(-1)!) as DigestResult;
}

export async function digest(run: { database: BenchDatabase; rows: Row[] }) {
  const due = Math.floor(Date.now() / HOUR_MS) * HOUR_MS - HOUR_MS;
  const dayBefore = due - 24 * HOUR_MS;
  await seedDay(run.database, SMALL_INVESTORS, dayBefore);
  await seedDay(run.database, INVESTORS, due);
  const small = digestAt(run.database, dayBefore);
  const large = digestAt(run.database, due);
  const added = (large.peakRss - large.rssBefore) / MB;
  const [smallPer, largePer] = [small.ms / SMALL_INVESTORS, large.ms / INVESTORS];
  const ratio = largePer / smallPer;
  run.rows.push({
    figure: `daily digest (${INVESTORS.toLocaleString("en-US")} investors, ${DOCUMENTS} documents, ${(INVESTORS * OPENED_EACH).toLocaleString("en-US")} openings in its day) vs ${SMALL_INVESTORS.toLocaleString("en-US")} investors`,
    value: `${fmt(ratio, 2)}× per investor (${fmt(largePer, 3)} vs ${fmt(smallPer, 3)} ms), +${fmt(added, 1)} MB`,
    target: `≤ ${PER_INVESTOR_LIMIT}× per investor, ≤ +${TARGET_ADDED_MB} MB`,
    floor: `the same digest at ${SMALL_INVESTORS.toLocaleString("en-US")} investors: ${fmt(small.ms, 0)} ms`,
    absolute: `${fmt(large.ms, 0)} ms, peak RSS ${fmt(large.peakRss / MB, 0)} MB, ${large.bytes} bytes`,
    pass: small.written === 1 && large.written === 1 && ratio <= PER_INVESTOR_LIMIT && added <= TARGET_ADDED_MB,
  });
}
