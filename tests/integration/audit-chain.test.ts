/**
 * The audit trail's keyed hash chain: every row sealed onto the one before under AUDIT_KEY, the table
 * refusing every change and deletion, `npm run audit:verify` finding each kind of tampering done
 * straight in the database by someone who first removed that guard (and, without the key, cannot
 * recompute the chain), two writers at once never forking the chain, signed exports
 * (`npm run audit:export`) that fail on one changed byte, and the live trail held to an earlier
 * export (`audit:verify --against`), which catches a cut tail or a rewrite even by the key's holder.
 */
import fs from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import { forgetVerifiedAuditRows } from "~/models/audit/audit-chain-watch.server";
import { verifyAuditChain } from "~/models/audit/audit-chain.server";
import { recordAuditEvent } from "~/models/audit/audit.server";
import * as auditPage from "~/routes/financing.audit/route";
import { getDb } from "~/server/db.server";
import { GENESIS_HASH, auditRowHash, chainKeyOf, sha256RowHash } from "../../migrations/audit-chain.js";
import { callRoute, type RouteModule } from "../support/api-routes";
import { createUser, sessionCookieFor } from "../support/factories";
import { useIntegration } from "../support/integration";
import { runScript } from "../support/run-script";
import { TEST_KEYS } from "../support/test-keys";

const { database } = useIntegration({ database: "each" });
let databasePath: string;

beforeEach(async () => {
  databasePath = process.env.DATABASE_PATH!;
});

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
  SESSION_SECRET: TEST_KEYS.SESSION_SECRET,
  ...extra,
});
const auditVerify = (args: string[] = [], extra: Record<string, string> = {}) =>
  runScript("audit-verify.ts", args, scriptEnv(extra));
const auditExport = (file: string, extra: Record<string, string> = {}) =>
  runScript("audit-export.ts", [file], scriptEnv(extra));

/** The statements that take away the table's append-only guard, as the database's owner can. */
const DROP_GUARD = {
  sqlite: ["drop trigger if exists audit_events_no_update", "drop trigger if exists audit_events_no_delete"],
  postgres: ["drop trigger if exists audit_events_no_change on audit_events"],
};

async function removeGuard() {
  for (const statement of DROP_GUARD[database.engine]) await sql.raw(statement).execute(getDb());
}

/**
 * Tampering as someone who holds the database would do it: straight SQL, around the app's use cases,
 * after removing the triggers that make the table append-only.
 */
async function tamper(...statements: string[]) {
  await removeGuard();
  for (const statement of statements) await sql.raw(statement).execute(getDb());
}

const keyed = (prevHash: string, row: Parameters<typeof sha256RowHash>[1], key: string = TEST_KEYS.AUDIT_KEY) =>
  auditRowHash(chainKeyOf(key), prevHash, row);

/**
 * Rewrites row `id` with `details`, then seals it and every row after it again with `seal`, as
 * someone would who wants the chain to hold after the edit.
 */
async function rewriteAndReseal(
  id: number,
  details: string,
  seal: (prev: string, row: Parameters<typeof sha256RowHash>[1]) => string,
) {
  await tamper(`update audit_events set details = '${details}' where id = ${id}`);
  const rows = await getDb().selectFrom("audit_events").selectAll().where("id", ">=", id).orderBy("id").execute();
  const before = await getDb()
    .selectFrom("audit_events")
    .select("hash")
    .where("id", "<", id)
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  let prev = before?.hash ?? GENESIS_HASH;
  for (const row of rows) {
    const hash = seal(prev, row);
    await getDb().updateTable("audit_events").set({ prev_hash: prev, hash }).where("id", "=", row.id).execute();
    prev = hash;
  }
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

  it("is append-only for the app: an update, a delete (and on PostgreSQL a truncate) are refused, and nothing changes", async () => {
    await fiveEvents();
    const before = await chainRows();
    const refused = [
      "update audit_events set details = null where id = 2",
      "delete from audit_events where id = 5",
      "delete from audit_events",
      ...(database.engine === "postgres" ? ["truncate audit_events"] : []),
    ];
    for (const statement of refused) {
      await expect(sql.raw(statement).execute(getDb()), statement).rejects.toThrow(/append-only/);
    }
    expect(await chainRows()).toEqual(before);
    expect(await verifyAuditChain()).toMatchObject({ ok: true, rows: 5 });
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

  it("reports a row edited and the whole chain after it recomputed without the key, at the edited row", async () => {
    await fiveEvents();
    // The keyless chain of before: SHA-256 recomputed from the edit to the end would have verified.
    await rewriteAndReseal(3, '{"i":33}', sha256RowHash);
    expect(await verifyAuditChain()).toEqual({ ok: false, rows: 2, problem: "changed", rowId: 3 });
    // Under a key of the attacker's own, the same.
    await rewriteAndReseal(3, '{"i":34}', (prev, row) => keyed(prev, row, "a".repeat(16) + TEST_KEYS.DATA_KEY));
    expect(await verifyAuditChain()).toEqual({ ok: false, rows: 2, problem: "changed", rowId: 3 });
  });

  it("reports a changed row whose hash alone was made again under the key, as a break at the next row", async () => {
    await fiveEvents();
    // Whoever recomputes row 3's hash still leaves row 4 pointing at the old one.
    await removeGuard();
    const row = await getDb().selectFrom("audit_events").selectAll().where("id", "=", 3).executeTakeFirstOrThrow();
    const edited = { ...row, details: '{"i":33}' };
    await getDb()
      .updateTable("audit_events")
      .set({ details: edited.details, hash: keyed(row.prev_hash!, edited) })
      .where("id", "=", 3)
      .execute();
    expect(await verifyAuditChain()).toEqual({ ok: false, rows: 3, problem: "missing", rowId: 4 });
  });

  it("reports a gap in the ids where rows were cut from the middle and the chain recomputed under the key", async () => {
    await fiveEvents();
    await tamper("delete from audit_events where id = 3");
    await rewriteAndReseal(4, '{"i":4}', keyed);
    expect(await verifyAuditChain()).toEqual({ ok: false, rows: 2, problem: "gap", rowId: 4, after: 2 });
    const run = await auditVerify();
    expect(run.code).toBe(1);
    expect(run.output).toContain(
      "Row 4 follows row 2: the rows between are missing, and no re-seal of the trail recorded the gap.",
    );
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
    await tamper("insert into audit_events (id, action, details, at) values (6, 'login.succeeded', null, 1)");
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
  beforeEach(() => forgetVerifiedAuditRows());

  it("shows the chain verified up to the newest row, checking only new rows, and links to where it broke once found", async () => {
    await fiveEvents();
    const admin = await createUser({ named: true, role: "administrator" });
    const cookie = await sessionCookieFor(admin.id);
    const load = async () => {
      const response = await callRoute(auditPage as unknown as RouteModule, {
        path: "/financing/audit",
        headers: { Cookie: cookie },
      });
      expect(response.status).toBe(200);
      return ((await response.json()) as { chain: { intact: boolean; sentences: string[]; brokenRow: number | null } })
        .chain;
    };
    const whole = await load();
    expect(whole.intact).toBe(true);
    expect(whole.sentences.join(" ")).toMatch(/^Verified: unaltered up to row \d+ \(recorded .+ UTC\)\.$/);

    await tamper("update audit_events set ip = '198.51.100.9' where id = 2");
    // A page load walks only the rows added since the last verified: an edit of an older row waits for a whole walk.
    expect((await load()).intact).toBe(true);
    forgetVerifiedAuditRows(); // as a restart does
    expect(await load()).toEqual({
      intact: false,
      sentences: ["Broken.", "Row 2 was changed after it was written: its hash does not match its content."],
      brokenRow: 2,
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
    run = await auditVerify(["--export", file], { AUDIT_KEY: TEST_KEYS.DATA_KEY });
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

  it("never writes over a file, and needs AUDIT_KEY in production, where none is generated", async () => {
    await fiveEvents();
    const file = exportFile();
    fs.writeFileSync(file, "kept");
    const refused = await auditExport(file);
    expect(refused.code).toBe(1);
    expect(refused.output).toContain(`${file} exists already: name a new file.`);
    expect(fs.readFileSync(file, "utf8")).toBe("kept");

    const unkeyed = exportFile();
    const inProduction = await auditExport(unkeyed, { AUDIT_KEY: "" });
    expect(inProduction.code).toBe(1);
    expect(inProduction.output).toContain("AUDIT_KEY is not set: it is required in production.");
    expect(fs.existsSync(unkeyed)).toBe(false);
    expect(fs.existsSync(path.join(database.dir, "audit-key"))).toBe(false);
  });

  it("refuses bad usage with exit code 2, and a missing file with a clear message", async () => {
    expect((await runScript("audit-export.ts", [], scriptEnv())).code).toBe(2);
    expect((await auditVerify(["--export"])).code).toBe(2);
    const run = await auditVerify(["--export", path.join(database.dir, "nothing.jsonl")]);
    expect(run.code).toBe(1);
    expect(run.output).toContain("The export cannot be read");
  });
  describe("the live trail held to an earlier export (--against)", () => {
    async function exportOfFive() {
      await fiveEvents();
      const file = exportFile();
      expect((await auditExport(file)).code).toBe(0);
      return file;
    }

    it("passes while the trail holds every exported row, and grows after them", async () => {
      const file = await exportOfFive();
      await recordAuditEvent({ action: "test.later" });
      const run = await auditVerify(["--against", file]);
      expect(run.code, run.output).toBe(0);
      expect(run.output).toContain(
        "The live trail still holds all 5 rows of the export, unchanged and in order, up to row 5.",
      );
      expect(run.output).toContain("Audit trail: Verified: 6 rows unaltered, up to row 6");
    });

    it("reports a tail cut after the export, though the shorter chain verifies on its own", async () => {
      const file = await exportOfFive();
      await tamper("delete from audit_events where id >= 4");
      expect(await verifyAuditChain()).toMatchObject({ ok: true, rows: 3 });
      const run = await auditVerify(["--against", file]);
      expect(run.code).toBe(1);
      expect(run.output).toContain(
        "The live trail ends at row 3, but the export holds row 4: rows were cut from its end.",
      );
    });

    it("reports a row rewritten before the export's head, even with the chain recomputed under the key", async () => {
      const file = await exportOfFive();
      await rewriteAndReseal(2, '{"i":22}', keyed);
      expect(await verifyAuditChain()).toMatchObject({ ok: true, rows: 5 });
      const run = await auditVerify(["--against", file]);
      expect(run.code).toBe(1);
      expect(run.output).toContain(
        "Row 2 of the live trail is not the row the export holds: it was rewritten after the export was made.",
      );
    });

    it("reports a deleted row, as deleted, beside the gap the walk finds", async () => {
      const file = await exportOfFive();
      await tamper("delete from audit_events where id = 3");
      const run = await auditVerify(["--against", file]);
      expect(run.code).toBe(1);
      expect(run.output).toContain("Row 3 of the export is no longer in the live trail: it was deleted.");
    });

    it("refuses an export that does not verify, before looking at the trail", async () => {
      const file = await exportOfFive();
      fs.appendFileSync(file, "\n");
      const run = await auditVerify(["--against", file]);
      expect(run.code).toBe(1);
      expect(run.output).not.toContain("live trail");
    });
  });
});
