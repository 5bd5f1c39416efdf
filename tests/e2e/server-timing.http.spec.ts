import { expect, test } from "@playwright/test";
import { startPrivateServer, type PrivateServer } from "./support/private-server";

/**
 * Server-Timing (SERVER_TIMING=on, app/server/server-timing.server.ts): on, every answer (a page that reads the
 * database, a cached public page, a static file, an API refusal) carries the server's time and its database
 * statements' share, durations and nothing else; off, the default, no answer carries it.
 */

test.describe.configure({ mode: "serial" });

const HEADER = /^total;dur=(\d+\.\d{2}), db;dur=(\d+\.\d{2})$/;
const ANSWERS = ["/financing/login", "/faq", "/robots.txt", "/api/user/get_investors"];

for (const setting of ["on", "off"] as const) {
  test.describe(`SERVER_TIMING=${setting}`, () => {
    let server: PrivateServer;
    test.beforeAll(async () => {
      server = await startPrivateServer({
        name: `server-timing-${setting}`,
        env: setting === "on" ? { SERVER_TIMING: "on" } : {},
      });
    });
    test.afterAll(async () => server?.dispose());

    test(setting === "on" ? "every answer says its time and the database's share" : "no answer says it", async () => {
      for (const path of ANSWERS) {
        // Twice: the second /faq is the page cache's, answered before the app sees it.
        for (let i = 0; i < 2; i++) {
          const response = await fetch(`${server.url}${path}`);
          await response.arrayBuffer();
          const header = response.headers.get("server-timing");
          if (setting === "off") {
            expect(header, path).toBeNull();
            continue;
          }
          expect(header, path).toMatch(HEADER);
          const [, total, database] = HEADER.exec(header!)!.map(Number);
          expect(database, path).toBeLessThanOrEqual(total);
        }
      }
      if (setting === "on") {
        // A refused API login reads the account and its throttle: its statements' time is counted.
        const login = await fetch(`${server.url}/api/auth/login`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ email: "nobody@example.com", password: "Not-the-password-2026" }),
        });
        expect(login.status).toBe(401);
        expect(Number(HEADER.exec(login.headers.get("server-timing")!)![2])).toBeGreaterThan(0);
      }
    });
  });
}
