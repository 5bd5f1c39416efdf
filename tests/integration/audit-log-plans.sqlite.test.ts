/**
 * SQLite's plans for the audit log's pages: each single filter read through its own index of
 * migration 014, newest first, without sorting (a sort would read every row the filter matches, and
 * at a million rows take far longer than the page's 50 ms). SQLite only: PostgreSQL's figures are the bench's.
 */
import Database from "better-sqlite3";
import { auditLogPage, type AuditLogQuery } from "~/models/audit/audit-log.server";
import { recordAuditEvent } from "~/models/audit/audit.server";
import { useIntegration } from "../support/integration";

useIntegration();
beforeAll(async () => {
  for (let i = 0; i < 30; i++) {
    await recordAuditEvent({
      actorId: `id-${i % 3}`,
      actorEmail: `person${i % 3}@example.com`,
      action: i % 2 ? "materials.view" : "login.succeeded",
      targetEmail: `person${i % 3}@example.com`,
    });
  }
});

it("reads each filter's page through its own index, newest first, with no sort", async () => {
  const sqlite = new Database(process.env.DATABASE_PATH!, { readonly: true });
  const all = vi.spyOn(Object.getPrototypeOf(sqlite.prepare("select 1")), "all");
  const today = new Date().toISOString().slice(0, 10);
  try {
    const cases: [string, AuditLogQuery, string][] = [
      ["no filter", { cursor: 20 }, "USING INTEGER PRIMARY KEY"],
      ["person", { person: "person1@example.com", cursor: 20 }, "USING INDEX audit_events_by_actor_email"],
      ["kind", { kind: "materials.view", cursor: 20 }, "USING INDEX audit_events_by_action"],
      ["investor", { investor: "person2@example.com", cursor: 20 }, "USING INDEX audit_events_by_target_email"],
      ["date range", { from: today, to: today, cursor: 20 }, "USING INTEGER PRIMARY KEY"],
    ];
    for (const [name, query, access] of cases) {
      all.mockClear();
      await auditLogPage(query);
      const statements = all.mock.contexts as Database.Statement[];
      const at = statements.findIndex((statement) => /select \* from "audit_events".* limit/.test(statement.source));
      const plan = sqlite
        .prepare(`explain query plan ${statements[at].source}`)
        .all(all.mock.calls[at][0])
        .map((step) => (step as { detail: string }).detail)
        .join("\n");
      expect(plan, name).toContain(access);
      expect(plan, name).not.toContain("TEMP B-TREE");
    }
  } finally {
    all.mockRestore();
    sqlite.close();
  }
});
