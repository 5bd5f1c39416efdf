/**
 * `npm run db:backup -- <file>` as an operator runs it: a child process copying
 * the database while this process keeps writing to it, then a restore as
 * README describes (the copy placed at DATABASE_PATH) that finds every row.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type Database from "better-sqlite3";
import { openSqlite } from "../../migrations/migrator.js";
import { withDatabaseFile } from "../support/database-file";
import { useIntegration } from "../support/integration";

const SCRIPT = path.resolve("scripts/db-backup.js");

let databasePath: string;

const { database: fresh } = useIntegration();
beforeAll(async () => {
  databasePath = process.env.DATABASE_PATH!;
});

type Run = { code: number | null; output: string };

function backup(file: string): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [SCRIPT, file], {
      env: { NODE_ENV: "production", PATH: process.env.PATH ?? "", DATABASE_PATH: databasePath },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk));
    child.on("close", (code) => resolve({ code, output }));
  });
}

/** Keeps inserting audit rows, yielding between them, until stopped; each insert is its own commit. */
function startWriting(sqlite: Database.Database) {
  const insert = sqlite.prepare("insert into audit_events (action, details, at) values ('backup.test', ?, ?)");
  let lastId = 0;
  let stopped = false;
  const done = (async () => {
    for (let i = 0; !stopped && i < 50_000; i += 1) {
      lastId = Number(insert.run(`row ${i}`, Date.now()).lastInsertRowid);
      await new Promise((resolve) => setImmediate(resolve));
    }
  })();
  return {
    lastCommittedId: () => lastId,
    stop: async () => {
      stopped = true;
      await done;
    },
  };
}

function auditIds(file: string): number[] {
  return withDatabaseFile(
    file,
    (db) =>
      (
        db.prepare("select id from audit_events where action = 'backup.test' order by id").all() as { id: number }[]
      ).map((row) => row.id),
    { readonly: true },
  );
}

test("a backup taken while writes continue holds every row committed before it, and restores", async () => {
  const sqlite = openSqlite(databasePath);
  const writer = startWriting(sqlite);
  try {
    while (writer.lastCommittedId() < 200) await new Promise((resolve) => setImmediate(resolve));
    const committedBefore = writer.lastCommittedId();
    const file = path.join(fresh.dir, "backups", "portal-backup.sqlite");

    const run = await backup(file);
    const writtenDuring = writer.lastCommittedId() - committedBefore;
    await writer.stop();

    expect(run.code, run.output).toBe(0);
    expect(run.output).toContain(`to ${file}`);
    expect(writtenDuring).toBeGreaterThan(0);
    expect(fs.readdirSync(path.dirname(file))).toEqual(["portal-backup.sqlite"]);

    withDatabaseFile(file, (check) => expect(check.pragma("integrity_check", { simple: true })).toBe("ok"), {
      readonly: true,
    });

    // A snapshot: every row up to some commit, at least all of those committed before the backup began.
    const firstId = auditIds(databasePath)[0];
    const ids = auditIds(file);
    expect(ids.length).toBeGreaterThanOrEqual(committedBefore - firstId + 1);
    expect(ids).toEqual(Array.from({ length: ids.length }, (_, i) => firstId + i));

    // Restore: the copy placed at a DATABASE_PATH opens as the app opens it, with every row.
    const restoredPath = path.join(fresh.dir, "restored", "portal.sqlite");
    fs.mkdirSync(path.dirname(restoredPath));
    fs.copyFileSync(file, restoredPath);
    const restored = openSqlite(restoredPath);
    try {
      expect(restored.pragma("integrity_check", { simple: true })).toBe("ok");
      const count = restored.prepare("select count(*) as n from audit_events where action = 'backup.test'").get() as {
        n: number;
      };
      expect(count.n).toBe(ids.length);
      expect(restored.prepare("select count(*) as n from users").get()).toEqual({ n: 0 });
      // The materials library's files (migration 016's first library) are rows like any other: all carried.
      const library = "select count(*) as n, sum(length(data)) as bytes from blob_chunks";
      expect(restored.prepare(library).get()).toEqual(sqlite.prepare(library).get());
    } finally {
      restored.close();
    }
  } finally {
    await writer.stop();
    sqlite.close();
  }
});

test("the backup refuses a missing file name, an existing file and the database itself", async () => {
  const existing = path.join(fresh.dir, "existing.sqlite");
  fs.writeFileSync(existing, "keep me");

  const noName = await backup("");
  expect(noName.code).toBe(1);
  expect(noName.output).toContain("Usage: npm run db:backup -- <file>");

  const overwrite = await backup(existing);
  expect(overwrite.code).toBe(1);
  expect(overwrite.output).toContain("already exists");
  expect(fs.readFileSync(existing, "utf8")).toBe("keep me");

  const itself = await backup(databasePath);
  expect(itself.code).toBe(1);
  expect(itself.output).toContain("cannot overwrite the database itself");
});
