import { randomBytes } from "node:crypto";
import http from "node:http";
import { expect, test } from "@playwright/test";
import { createDatabase, startCluster, stopCluster } from "../../scripts/throwaway-postgres";
import { readScrape, type Scrape } from "../support/metrics-scrape";
import { startPrivateServer, type PrivateServer } from "./support/private-server";

/**
 * The metrics as an operator's Prometheus reads them from the built server, on SQLite and on
 * PostgreSQL: scraped from the metrics' own listener and parsed with a Prometheus text-format parser,
 * a page, a failed login and a sent mail each move their series, labelled by route, never by path;
 * the engine label and the pool's gauges follow the database. Never public: /metrics on the site's
 * port answers 404 unless the scrape presents METRICS_TOKEN, and a scrape is neither counted nor logged.
 */

test.describe.configure({ mode: "serial" });

const TOKEN = randomBytes(32).toString("hex");
const POSTGRES_PORT = "25486";
const PASSWORD = "Metrics-Valid-Passphrase-28";

async function scrape(url: string, token?: string): Promise<Scrape> {
  const response = await fetch(url, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  expect(response.status, url).toBe(200);
  expect(response.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
  expect(response.headers.get("cache-control")).toBe("no-store");
  return readScrape(await response.text());
}

const json = (body: unknown) => ({
  method: "POST",
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify(body),
});

/**
 * Scrapes until `settled` holds, for at most five seconds: a request is counted once its answer has gone
 * out, which its client may see a moment before; an e-mail once the SMTP server's answer reaches the app.
 */
async function scrapeUntil(url: string, settled: (scrape: Scrape) => boolean): Promise<Scrape> {
  let current = await scrape(url, TOKEN);
  for (let tries = 0; !settled(current) && tries < 50; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    current = await scrape(url, TOKEN);
  }
  return current;
}

/** GET with the path exactly as written (fetch would resolve its dot segments and slashes first). */
function getAsWritten(origin: string, rawPath: string, headers: Record<string, string>) {
  const { hostname, port } = new URL(origin);
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    http
      .get({ host: hostname, port, path: rawPath, headers, agent: false }, (response) => {
        let body = "";
        response.on("data", (chunk: Buffer) => (body += chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
      })
      .on("error", reject);
  });
}

/** How much each series moved between two scrapes. */
function delta(before: Scrape, after: Scrape, name: string, labels: Record<string, string> = {}) {
  return (after.total(name, labels) ?? 0) - (before.total(name, labels) ?? 0);
}

for (const engine of ["sqlite", "postgres"] as const) {
  test.describe(`on ${engine}`, () => {
    let server: PrivateServer;
    let metricsUrl: string;
    let databaseUrl: string | undefined;

    test.beforeAll(async () => {
      test.setTimeout(120_000);
      if (engine === "postgres") databaseUrl = await createDatabase(startCluster(POSTGRES_PORT), "metrics");
      server = await startPrivateServer({
        name: `metrics-${engine}`,
        env: { METRICS_TOKEN: TOKEN, ...(databaseUrl && { DATABASE_URL: databaseUrl }) },
      });
      metricsUrl = await server.metricsUrl();
    });

    test.afterAll(async () => {
      await server?.dispose();
      if (engine === "postgres") stopCluster(POSTGRES_PORT);
    });

    test("a page, a failed login and a sent mail each move their series, by route and never by path", async () => {
      const before = await scrape(metricsUrl, TOKEN);
      const email = `metrics.${engine}.${Date.now().toString(36)}@example.com`;

      expect((await fetch(`${server.url}/faq`)).status).toBe(200);
      expect((await fetch(`${server.url}/api/auth/register`, json({ email, password: PASSWORD }))).status).toBe(201);
      const mail = await server.smtp.mailTo(email, /verify/i, 10_000);
      const token = /\/auth\/verify\/([A-Za-z0-9_-]{43})\b/.exec(mail.text)![1];
      expect((await fetch(`${server.url}/api/auth/verify/${token}`)).status).toBe(200);
      const wrong = await fetch(`${server.url}/api/auth/login`, json({ email, password: "Not-The-Passphrase-28" }));
      expect(wrong.status).toBe(401);
      const after = await scrapeUntil(
        metricsUrl,
        (now) =>
          delta(before, now, "portal_mails_total", { outcome: "sent" }) >= 1 &&
          delta(before, now, "portal_http_requests_total", { route: "routes/api.auth.login" }) >= 1,
      );

      const requests = (route: string, method: string, status: string) =>
        delta(before, after, "portal_http_requests_total", { route, method, status });
      expect(requests("routes/_site.faq", "GET", "200")).toBe(1);
      expect(requests("routes/api.auth.register", "POST", "201")).toBe(1);
      expect(requests("routes/api.auth.verify.$token", "GET", "200")).toBe(1);
      expect(requests("routes/api.auth.login", "POST", "401")).toBe(1);
      expect(after.family("portal_http_request_duration_seconds")?.type).toBe("HISTOGRAM");
      expect(
        delta(before, after, "portal_http_request_duration_seconds_count", {
          route: "routes/api.auth.login",
          method: "POST",
        }),
      ).toBe(1);

      expect(delta(before, after, "portal_login_failures_total", { reason: "wrong_password" })).toBe(1);
      expect(delta(before, after, "portal_logins_total")).toBe(0);
      expect(delta(before, after, "portal_signups_total")).toBe(1);
      expect(delta(before, after, "portal_mails_total", { outcome: "sent" })).toBe(1);
      expect(delta(before, after, "portal_mails_total", { outcome: "failed" })).toBe(0);
      // Registered, verified, the failed login.
      expect(delta(before, after, "portal_audit_rows_written_total")).toBe(3);
      expect(after.total("portal_contact_messages_unmailed")).toBe(0);
      expect(after.total("portal_ready")).toBe(1);
      expect(after.total("portal_audit_chain_intact")).toBe(1);
      // The server's own reader is wired: the login's check is done, none is running or waiting.
      expect(after.family("portal_password_hashes_running")?.type).toBe("GAUGE");
      expect(after.total("portal_password_hashes_running")).toBe(0);
      expect(after.total("portal_password_hashes_waiting")).toBe(0);

      // No label carries a path, an address or a token, and the scrapes themselves were not counted.
      const routes = after.labelValues("portal_http_requests_total", "route");
      for (const route of routes) expect(route).toMatch(/^(routes\/[\w.$[\]-]+|static|unmatched)$/);
      expect(routes).not.toContain("unmatched");
      const text = await (await fetch(metricsUrl, { headers: { Authorization: `Bearer ${TOKEN}` } })).text();
      for (const secret of [token, email, "/faq", PASSWORD]) expect(text).not.toContain(secret);
      const scrapesLogged = server
        .logLines()
        .filter((line) => line.event !== "metrics.listening" && JSON.stringify(line).includes("/metrics"));
      expect(scrapesLogged).toEqual([]);
    });

    test(`the engine label says ${engine}, and the pool's gauges are there on PostgreSQL alone`, async () => {
      const now = await scrape(metricsUrl, TOKEN);
      expect(now.labelValues("portal_db_query_duration_seconds_count", "engine")).toEqual([engine]);
      expect(now.total("portal_db_query_duration_seconds_count", { engine, operation: "select" })).toBeGreaterThan(0);
      expect(now.labelValues("portal_db_query_errors_total", "engine")).toEqual([engine]);
      if (engine === "postgres") {
        expect(now.family("portal_db_pool_connections")?.type).toBe("GAUGE");
        expect(now.total("portal_db_pool_connections")).toBeGreaterThanOrEqual(1);
        expect(now.total("portal_db_pool_idle_connections")).toBeGreaterThanOrEqual(0);
        expect(now.total("portal_db_pool_waiting_requests")).toBeGreaterThanOrEqual(0);
      } else {
        expect(now.family("portal_db_pool_connections")).toBeUndefined();
      }
      // The process's own series (prom-client's defaults).
      for (const name of [
        "nodejs_eventloop_lag_seconds",
        "process_resident_memory_bytes",
        "nodejs_heap_size_used_bytes",
      ]) {
        expect(now.family(name), name).toBeDefined();
      }
    });

    if (engine === "postgres") {
      test("each instance serves its own series, never another's", async () => {
        test.setTimeout(90_000);
        const other = await startPrivateServer({
          name: "metrics-postgres-b",
          env: { METRICS_TOKEN: TOKEN, DATABASE_URL: databaseUrl },
        });
        try {
          const otherUrl = await other.metricsUrl();
          expect(otherUrl).not.toBe(metricsUrl);
          const faq = { route: "routes/_site.faq", method: "GET", status: "200" };
          const [before, otherBefore] = [await scrape(metricsUrl, TOKEN), await scrape(otherUrl, TOKEN)];
          for (let i = 0; i < 3; i++) expect((await fetch(`${other.url}/faq`)).status).toBe(200);
          const otherAfter = await scrapeUntil(
            otherUrl,
            (now) => delta(otherBefore, now, "portal_http_requests_total", faq) >= 3,
          );
          const after = await scrape(metricsUrl, TOKEN);
          expect(delta(otherBefore, otherAfter, "portal_http_requests_total", faq)).toBe(3);
          expect(delta(before, after, "portal_http_requests_total", faq)).toBe(0);
          // What the database holds reads the same from either.
          expect(otherAfter.total("portal_contact_messages_unmailed")).toBe(
            after.total("portal_contact_messages_unmailed"),
          );
        } finally {
          await other.dispose();
        }
      });
    }

    if (engine === "sqlite") {
      test("on the site's port /metrics answers 404, in any spelling, unless the scrape presents the token", async () => {
        const before = await scrape(metricsUrl, TOKEN);
        for (const spelling of ["/metrics", "/%6detrics", "/x/../metrics", "//metrics", "/metrics/", "/METRICS"]) {
          for (const authorization of [undefined, "Bearer wrong-token", `Basic ${TOKEN}`, TOKEN]) {
            const answer = await getAsWritten(
              server.url,
              spelling,
              authorization ? { Authorization: authorization } : {},
            );
            expect(answer.status, `${spelling} ${authorization}`).toBe(404);
            expect(answer.body).not.toContain("portal_http_requests_total");
          }
        }
        const right = await scrape(`${server.url}/metrics`, TOKEN);
        expect(right.family("portal_http_requests_total")?.type).toBe("COUNTER");
        const head = await fetch(`${server.url}/metrics`, {
          method: "HEAD",
          headers: { Authorization: `Bearer ${TOKEN}` },
        });
        expect(head.status).toBe(200);

        // The refusals are ordinary requests for an unknown address; the scrapes that got through are not counted.
        const after = await scrapeUntil(
          metricsUrl,
          (now) => delta(before, now, "portal_http_requests_total", { route: "unmatched" }) >= 24,
        );
        expect(delta(before, after, "portal_http_requests_total", { route: "unmatched", status: "404" })).toBe(24);
        expect(delta(before, after, "portal_http_requests_total", { method: "HEAD" })).toBe(0);
        const logged = server.logLines().filter((line) => line.event === "http.request" && line.status === 200);
        expect(logged.filter((line) => String(line.path).toLowerCase().includes("metrics"))).toEqual([]);
      });

      test("the metrics' own listener asks for the token when one is set, and serves /metrics alone", async () => {
        expect((await fetch(metricsUrl)).status).toBe(401);
        const wrong = await fetch(metricsUrl, { headers: { Authorization: "Bearer wrong-token" } });
        expect(wrong.status).toBe(401);
        expect(wrong.headers.get("www-authenticate")).toMatch(/^Bearer/);
        expect(
          (await fetch(metricsUrl.replace("/metrics", "/"), { headers: { Authorization: `Bearer ${TOKEN}` } })).status,
        ).toBe(404);
        expect(
          (await fetch(metricsUrl, { method: "POST", headers: { Authorization: `Bearer ${TOKEN}` } })).status,
        ).toBe(404);
        expect(new URL(metricsUrl).hostname).toBe("127.0.0.1");
      });
    }
  });
}

test("a server without METRICS_TOKEN answers 404 at /metrics on its own port, whatever the scrape presents", async ({
  request,
}) => {
  const asked: Record<string, string>[] = [{}, { Authorization: `Bearer ${TOKEN}` }];
  for (const headers of asked) {
    const response = await request.get("/metrics", { headers });
    expect(response.status()).toBe(404);
    expect(await response.text()).not.toContain("# TYPE");
  }
});
