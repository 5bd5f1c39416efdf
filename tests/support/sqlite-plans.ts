import Database from "better-sqlite3";

/**
 * SQLite's plan for each statement `work` ran that `pick` chooses by its SQL, as EXPLAIN QUERY PLAN's
 * steps, read through a second, read-only connection to the test database.
 */
export async function plansOfStatements(work: () => Promise<unknown>, pick: (source: string) => boolean) {
  const sqlite = new Database(process.env.DATABASE_PATH!, { readonly: true });
  const all = vi.spyOn(Object.getPrototypeOf(sqlite.prepare("select 1")), "all");
  try {
    await work();
    const statements = all.mock.contexts as Database.Statement[];
    return statements.flatMap((statement, at) =>
      pick(statement.source)
        ? [
            {
              source: statement.source,
              plan: sqlite
                .prepare(`explain query plan ${statement.source}`)
                .all(all.mock.calls[at][0])
                .map((step) => (step as { detail: string }).detail),
            },
          ]
        : [],
    );
  } finally {
    all.mockRestore();
    sqlite.close();
  }
}
