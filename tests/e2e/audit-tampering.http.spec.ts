/**
 * The rewrites of the audit trail a security review made, replayed against a running server's
 * database (SQLite), as someone who can write the database file would make them: each is reported
 * by `npm run audit:verify`, by the administrator's audit page, or by holding the live trail to an
 * export made before (`audit:verify --against`). Decision 0019 says which layer catches which.
 */
import fs from "node:fs";
import path from "node:path";
import { expect, request as playwrightRequest, test } from "@playwright/test";
import { GENESIS_HASH, auditRowHash, chainKeyOf, sha256RowHash } from "../../migrations/audit-chain.js";
import { withDatabaseFile } from "../support/database-file";
import { runScript } from "../support/run-script";
import { TEST_KEYS } from "../support/test-keys";
import { unusedTotpCode } from "../support/totp";
import { startPrivateServer, type PrivateServer } from "./support/private-server";

const PASSWORD = "Correct-Horse-Battery-Staple-42";
const ADMIN = "audit.tampering@example.com";

let server: PrivateServer;
let adminSecret: string;
let exportFile: string;

type Row = Parameters<typeof sha256RowHash>[1] & { id: number; prev_hash: string | null; hash: string | null };

/** Drops the table's append-only triggers, as the file's owner can, then runs `tamper` on the file. */
function tamperWith(file: string, tamper: (sqlite: Parameters<Parameters<typeof withDatabaseFile>[1]>[0]) => void) {
  withDatabaseFile(file, (sqlite) => {
    sqlite.exec("drop trigger if exists audit_events_no_update; drop trigger if exists audit_events_no_delete;");
    tamper(sqlite);
  });
}

/** Row `id` given new details, and it and every row after it sealed again with `seal`. */
function rewrite(file: string, id: number, details: string, seal: (prev: string, row: Row) => string) {
  tamperWith(file, (sqlite) => {
    sqlite.prepare("update audit_events set details = ? where id = ?").run(details, id);
    const before = sqlite.prepare("select hash from audit_events where id < ? order by id desc limit 1").get(id) as
      { hash: string } | undefined;
    let prev = before?.hash ?? GENESIS_HASH;
    for (const row of sqlite.prepare("select * from audit_events where id >= ? order by id").all(id) as Row[]) {
      const hash = seal(prev, row);
      sqlite.prepare("update audit_events set prev_hash = ?, hash = ? where id = ?").run(prev, hash, row.id);
      prev = hash;
    }
  });
}

/** A copy of the server's database, as a backup makes it: each attack below works on a copy of its own. */
async function copyOfTheTrail(name: string) {
  const file = path.join(server.dir, `${name}.sqlite`);
  const run = await runScript("db-backup.js", [file], { DATABASE_PATH: server.databasePath });
  expect(run.code, run.output).toBe(0);
  return file;
}

const verify = (file: string, args: string[] = []) => runScript("audit-verify.ts", args, { DATABASE_PATH: file });

// One server, one history: the tests take copies of it in turn, and the last rewrites it in place.
test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = await startPrivateServer({ name: "audit-tampering" });
  adminSecret = await server.createAdministrator(ADMIN, PASSWORD);
  // Some history: failed sign-ins, then the administrator's own.
  for (let i = 0; i < 4; i++) {
    await fetch(`${server.url}/api/auth/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email: `nobody${i}@example.com`, password: "not the password" }),
    });
  }
  exportFile = path.join(server.dir, "trail-before.jsonl");
  const exported = await runScript("audit-export.ts", [exportFile], { DATABASE_PATH: server.databasePath });
  expect(exported.code, exported.output).toBe(0);
  expect((await verify(server.databasePath, ["--against", exportFile])).code).toBe(0);
});

test.afterAll(async () => server?.dispose());

test("the app's own connection cannot change the trail: the triggers refuse it", () => {
  withDatabaseFile(server.databasePath, (sqlite) => {
    expect(() => sqlite.prepare("update audit_events set details = null where id = 2").run()).toThrow(/append-only/);
    expect(() => sqlite.prepare("delete from audit_events where id = 2").run()).toThrow(/append-only/);
  });
});

test("rows cut from the end: the shorter chain verifies alone, and the earlier export shows the cut", async () => {
  const file = await copyOfTheTrail("cut-tail");
  tamperWith(file, (sqlite) => sqlite.prepare("delete from audit_events where id >= 4").run());
  expect((await verify(file)).code).toBe(0);
  const against = await verify(file, ["--against", exportFile]);
  expect(against.code).toBe(1);
  expect(against.output).toContain(
    "The live trail ends at row 3, but the export holds row 4: rows were cut from its end.",
  );
});

test("a rewrite by someone who holds the key: the chain verifies, and the earlier export shows the rewrite", async () => {
  const file = await copyOfTheTrail("keyed-rewrite");
  const key = chainKeyOf(TEST_KEYS.AUDIT_KEY);
  rewrite(file, 2, '{"reason":"nothing happened"}', (prev, row) => auditRowHash(key, prev, row));
  expect((await verify(file)).code).toBe(0);
  const against = await verify(file, ["--against", exportFile]);
  expect(against.code).toBe(1);
  expect(against.output).toContain("Row 2 of the live trail is not the row the export holds");
  expect(fs.existsSync(exportFile)).toBe(true);
});

test("a row edited and the chain after it recomputed without the key: audit:verify and the audit page report it", async () => {
  const file = await copyOfTheTrail("keyless-rewrite");
  rewrite(file, 3, '{"reason":"nothing happened"}', sha256RowHash);
  const keyless = await verify(file);
  expect(keyless.code).toBe(1);
  expect(keyless.output).toContain("Row 3 was changed after it was written");

  // The same rewrite in the live database, under a key of the attacker's own: the page says so too.
  const otherKey = chainKeyOf(TEST_KEYS.SESSION_SECRET);
  rewrite(server.databasePath, 3, '{"reason":"nothing happened"}', (prev, row) => auditRowHash(otherKey, prev, row));
  const browser = await playwrightRequest.newContext({ baseURL: server.url });
  try {
    await browser.post("/financing/login", { form: { email: ADMIN, password: PASSWORD } });
    const code = await browser.post("/financing/login/code", { form: { code: await unusedTotpCode(adminSecret) } });
    expect(code.url()).toMatch(/\/financing$/);
    const page = await (await browser.get("/financing/audit")).text();
    expect(page).toContain("Broken.");
    expect(page).toContain("Row 3 was changed after it was written: its hash does not match its content.");
    // The message links to the page that shows the broken row, at its anchor.
    expect(page).toContain('<a href="/financing/audit?cursor=4#row-3">Show row 3</a>');
    const shown = await (await browser.get("/financing/audit?cursor=4")).text();
    expect(shown).toMatch(/<li id="row-3" class="audit-log__row">/);
  } finally {
    await browser.dispose();
  }
});
