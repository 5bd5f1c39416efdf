/**
 * The audit trail's hash chain: every row sealed onto the one before, `npm run audit:verify` finding
 * each kind of tampering done straight in the SQLite file, two writers at once never forking the
 * chain, and signed exports (`npm run audit:export`) that fail on one changed byte.
 */
import fs from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import { verifyAuditChain } from "~/models/audit-chain.server";
import { recordAuditEvent } from "~/models/audit.server";
import * as auditPage from "~/routes/financing.audit";
import { getDb } from "~/server/db.server";
import { GENESIS_HASH, auditRowHash } from "../../migrations/audit-chain.js";
import { callRoute, type RouteModule } from "../support/api-routes";
import { createUser, sessionCookieFor } from "../support/factories";
import { runScript } from "../support/run-script";
import { useFreshDatabase } from "../support/test-database";

const AUDIT_KEY = "audit-key-for-the-tests-0123456789abcdef";

let database: Awaited<ReturnType<typeof useFreshDatabase>>;
let databasePath: string;

beforeEach(async () => {
  database = await useFreshDatabase();
  databasePath = process.env.DATABASE_PATH!;
});
afterEach(async () => database.cleanup());

/** Five events, rows 1 to 5, as the app writes them. */
async function fiveEvents() {
  for (let i = 1; i <= 5; i++) {
    await recordAuditEvent({
      actorEmail: `actor${i}@example.com`,
      action: "test.event",
      details: { i },
      ip: "192.0.2.1",
    });
  }
}

const scriptEnv = (extra: Record<string, string> = {}) => ({
  NODE_ENV: "production",
  DATABASE_PATH: databasePath,
  DATABASE_URL: process.env.DATABASE_URL ?? "",
  SESSION_SECRET: "audit-chain-test-session-secret",
  AUDIT_KEY,
  ...extra,
});
const auditVerify = (args: string[] = [], extra: Record<string, string> = {}) =>
  runScript("audit-verify.ts", args, scriptEnv(extra));
const auditExport = (file: string, extra: Record<string, string> = {}) =>
  runScript("audit-export.ts", [file], scriptEnv(extra));

/** Tampering as someone with the database would do it: straight SQL, around the app's use cases. */
async function tamper(...statements: string[]) {
  for (const statement of statements) await sql.raw(statement).execute(getDb());
}

const chainRows = () =>
  getDb().selectFrom("audit_events").select(["id", "prev_hash", "hash", "action"]).orderBy("id").execute();

describe("the chain", () => {
  it("seals every row onto the one before it, from the genesis hash, and audit:verify finds it whole", async () => {
    await fiveEvents();
    const rows = await chainRows();
    expect(rows.map((row) => row.id)).toEqual([1, 2, 3, 4, 5]);
    expect(rows[0].prev_hash).toBe(GENESIS_HASH);
    for (let i = 1; i < rows.length; i++) expect(rows[i].prev_hash).toBe(rows[i - 1].hash);
    expect(new Set(rows.map((row) => row.hash)).size).toBe(5);
    for (const row of rows) expect(row.hash).toMatch(/^[0-9a-f]{64}$/);

    expect(await verifyAuditChain()).toEqual({ ok: true, rows: 5, last: { id: 5, at: expect.any(Number) } });
    const run = await auditVerify();
    expect(run.code, run.output).toBe(0);
    expect(run.output).toMatch(/^Audit trail: Verified: 5 rows unaltered, up to row 5 \(recorded .+ UTC\)\.$/m);
  });

  it("audit:verify says an empty trail is whole", async () => {
    const run = await auditVerify();
    expect(run.code, run.output).toBe(0);
    expect(run.output).toContain("Audit trail: Verified: no rows yet.");
  });

  it("reports a changed row, where, and that the rows before it verify; exits 1", async () => {
    await fiveEvents();
    await tamper(`update audit_events set details = '{"i":33}' where id = 3`);
    expect(await verifyAuditChain()).toEqual({ ok: false, rows: 2, problem: "changed", rowId: 3 });
    const run = await auditVerify();
    expect(run.code).toBe(1);
    expect(run.output).toContain(
      "Audit trail: Broken. Row 3 was changed after it was written: its hash does not match its content. The 2 rows before it verify.",
    );
  });

  it("reports a deleted row at the row that followed it", async () => {
    await fiveEvents();
    await tamper("delete from audit_events where id = 3");
    expect(await verifyAuditChain()).toEqual({ ok: false, rows: 2, problem: "missing", rowId: 4 });
    const run = await auditVerify();
    expect(run.code).toBe(1);
    expect(run.output).toContain(
      "Row 4 follows a row that is not in the trail: a row before it was deleted or rewritten.",
    );
  });

  it("reports a changed row whose hash was made again, as a break at the next row", async () => {
    await fiveEvents();
    // Whoever recomputes row 3's hash still leaves row 4 pointing at the old one.
    const row = await getDb().selectFrom("audit_events").selectAll().where("id", "=", 3).executeTakeFirstOrThrow();
    const edited = { ...row, details: '{"i":33}' };
    await getDb()
      .updateTable("audit_events")
      .set({ details: edited.details, hash: auditRowHash(row.prev_hash!, edited) })
      .where("id", "=", 3)
      .execute();
    expect(await verifyAuditChain()).toEqual({ ok: false, rows: 3, problem: "missing", rowId: 4 });
  });

  it("reports reordered rows: row 2 and row 4 swapped", async () => {
    await fiveEvents();
    await tamper(
      "update audit_events set id = 100 where id = 2",
      "update audit_events set id = 2 where id = 4",
      "update audit_events set id = 4 where id = 100",
    );
    // Row 2 now holds what was written after row 3.
    expect(await verifyAuditChain()).toEqual({ ok: false, rows: 1, problem: "out_of_order", rowId: 2, follows: 3 });
    const run = await auditVerify();
    expect(run.code).toBe(1);
    expect(run.output).toContain(
      "Row 2 is out of order: it was written right after row 3, not after the row now before it.",
    );
  });

  it("reports a row inserted without the chain, or with a made-up hash", async () => {
    await fiveEvents();
    await tamper("insert into audit_events (action, details, at) values ('login.succeeded', null, 1)");
    expect(await verifyAuditChain()).toEqual({ ok: false, rows: 5, problem: "unchained", rowId: 6 });
    const run = await auditVerify();
    expect(run.code).toBe(1);
    expect(run.output).toContain("Row 6 was written around the chain: it has no hash.");

    await tamper(
      `update audit_events set prev_hash = (select hash from audit_events where id = 5), hash = '${"ab".repeat(32)}' where id = 6`,
    );
    expect(await verifyAuditChain()).toEqual({ ok: false, rows: 5, problem: "changed", rowId: 6 });
  });

  it("never forks when two writers append at once: this process and create-admin in another", async () => {
    const adminRun = runScript(
      "create-admin.ts",
      ["chain.admin@example.com"],
      scriptEnv({ ADMIN_PASSWORD: "a long admin passphrase" }),
    );
    let finished = false;
    void adminRun.then(() => (finished = true));
    let written = 0;
    // Bursts of concurrent appends in this process for as long as the other process runs.
    while (!finished) {
      await Promise.all(
        Array.from({ length: 20 }, (_, i) => recordAuditEvent({ action: "test.concurrent", details: { i } })),
      );
      written += 20;
      // A short pause between bursts: SQLite answers synchronously, so without one the child's exit would never
      // be seen, and on a busy machine the child could wait past its busy timeout for a gap in the bursts.
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const { code, output } = await adminRun;
    expect(code, output).toBe(0);
    const actions = await chainRows();
    expect(actions.filter((row) => row.action === "test.concurrent")).toHaveLength(written);
    expect(actions.map((row) => row.action)).toContain("admin.created");
    expect(await verifyAuditChain()).toEqual({ ok: true, rows: actions.length, last: expect.anything() });
  });
});

describe("the administrator's audit page", () => {
  it("shows the chain verified up to the newest row, and where it broke once it has", async () => {
    await fiveEvents();
    const admin = await createUser({ named: true, role: "administrator" });
    const cookie = await sessionCookieFor(admin.id);
    const load = async () => {
      const response = await callRoute(auditPage as unknown as RouteModule, {
        path: "/financing/audit",
        headers: { Cookie: cookie },
      });
      expect(response.status).toBe(200);
      return ((await response.json()) as { chain: { intact: boolean; sentences: string[] } }).chain;
    };
    const whole = await load();
    expect(whole.intact).toBe(true);
    expect(whole.sentences.join(" ")).toMatch(/^Verified: \d+ rows unaltered, up to row \d+ \(recorded .+ UTC\)\.$/);

    await tamper("update audit_events set ip = '198.51.100.9' where id = 2");
    expect(await load()).toEqual({
      intact: false,
      sentences: [
        "Broken.",
        "Row 2 was changed after it was written: its hash does not match its content.",
        "The 1 row before it verify.",
      ],
    });
  });
});

// Each case runs the export and check scripts several times, a process each (tsx starts in 2-4 s).
describe("exports", { timeout: 60_000 }, () => {
  const exportFile = () => path.join(database.dir, `trail-${Math.random().toString(36).slice(2)}.jsonl`);

  it("writes one JSON line per row and a signature line; the export verifies", async () => {
    await fiveEvents();
    const file = exportFile();
    const made = await auditExport(file);
    expect(made.code, made.output).toBe(0);
    expect(made.output).toContain(`Exported 5 rows to ${file}, signed.`);
    const lines = fs.readFileSync(file, "utf8").trimEnd().split("\n");
    expect(lines).toHaveLength(6);
    expect(JSON.parse(lines[0])).toMatchObject({
      id: 1,
      action: "test.event",
      actor_email: "actor1@example.com",
      prev_hash: GENESIS_HASH,
    });
    expect(JSON.parse(lines[5])).toEqual({
      signature: { algorithm: "HMAC-SHA256", rows: 5, value: expect.stringMatching(/^[0-9a-f]{64}$/) },
    });
    expect(fs.statSync(file).mode & 0o077).toBe(0);

    const checked = await auditVerify(["--export", file]);
    expect(checked.code, checked.output).toBe(0);
    expect(checked.output).toContain(
      "Export verified: the signature matches and the rows' chain is whole. Verified: 5 rows unaltered, up to row 5",
    );
  });

  it("fails the same export with one byte changed, in a row or in the signature, and under another key", async () => {
    await fiveEvents();
    const file = exportFile();
    expect((await auditExport(file)).code).toBe(0);
    const original = fs.readFileSync(file);

    const inRow = Buffer.from(original);
    const at = original.indexOf("actor3@example.com");
    inRow[at] = "b".charCodeAt(0);
    fs.writeFileSync(file, inRow);
    let run = await auditVerify(["--export", file]);
    expect(run.code).toBe(1);
    expect(run.output).toContain(
      "The export's signature does not match: the file was changed, or signed with another AUDIT_KEY.",
    );

    const inSignature = Buffer.from(original);
    const value = original.lastIndexOf('"value":"') + 9;
    inSignature[value] = inSignature[value] === "0".charCodeAt(0) ? "1".charCodeAt(0) : "0".charCodeAt(0);
    fs.writeFileSync(file, inSignature);
    run = await auditVerify(["--export", file]);
    expect(run.code).toBe(1);
    expect(run.output).toContain("signature does not match");

    fs.writeFileSync(file, original);
    expect((await auditVerify(["--export", file])).code).toBe(0);
    run = await auditVerify(["--export", file], { AUDIT_KEY: "another-audit-key-0123456789abcdefghij" });
    expect(run.code).toBe(1);
    expect(run.output).toContain("signature does not match");

    fs.writeFileSync(file, original.subarray(0, original.lastIndexOf("{")));
    run = await auditVerify(["--export", file]);
    expect(run.code).toBe(1);
    expect(run.output).toContain("The export has no signature line");
  });

  it("a signed export of a broken trail verifies its signature and reports the break", async () => {
    await fiveEvents();
    await tamper("delete from audit_events where id = 2");
    const file = exportFile();
    expect((await auditExport(file)).code).toBe(0);
    const run = await auditVerify(["--export", file]);
    expect(run.code).toBe(1);
    expect(run.output).toContain(
      "The export's signature matches, but its chain is broken. Broken. Row 3 follows a row that is not in the trail",
    );
  });

  it("never writes over a file, and without AUDIT_KEY makes one in the data folder that the check then uses", async () => {
    await fiveEvents();
    const file = exportFile();
    fs.writeFileSync(file, "kept");
    const refused = await auditExport(file);
    expect(refused.code).toBe(1);
    expect(refused.output).toContain(`${file} exists already: name a new file.`);
    expect(fs.readFileSync(file, "utf8")).toBe("kept");

    const unkeyed = exportFile();
    const made = await auditExport(unkeyed, { AUDIT_KEY: "" });
    expect(made.code, made.output).toBe(0);
    expect(made.output).toContain("AUDIT_KEY is not set: generated one into");
    expect(fs.existsSync(path.join(database.dir, "audit-key"))).toBe(true);
    expect((await auditVerify(["--export", unkeyed], { AUDIT_KEY: "" })).code).toBe(0);
    expect((await auditVerify(["--export", unkeyed])).code).toBe(1);
  });

  it("refuses bad usage with exit code 2, and a missing file with a clear message", async () => {
    expect((await runScript("audit-export.ts", [], scriptEnv())).code).toBe(2);
    expect((await auditVerify(["--export"])).code).toBe(2);
    const run = await auditVerify(["--export", path.join(database.dir, "nothing.jsonl")]);
    expect(run.code).toBe(1);
    expect(run.output).toContain("The export cannot be read");
  });
});
