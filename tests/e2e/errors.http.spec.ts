import net from "node:net";
import { expect, test } from "@playwright/test";
import { startPrivateServer, type PrivateServer } from "./support/private-server";
import { sendRaw, type RawAnswer } from "./support/raw-http";

/**
 * Requests that fail before any page can answer them: malformed URLs and
 * methods the site does not serve. Whatever NODE_ENV is, the answer is a clear
 * 4xx, never a 5xx, and never shows a stack or a file path: JSON under /api, the
 * site's own error page elsewhere. The log gets one JSON line with the request id.
 */

const MALFORMED_PATHS = [
  "/%",
  "/faq%E0%A4%A",
  "/%E0%A4%A",
  "/%66inancing/%E0%A4%A",
  "/api/%",
  "/api/user/%zz",
  "/financing/%",
];
const UNSERVED_METHODS = ["TRACE", "PROPFIND", "MKCOL", "LOCK"];

/** A stack trace's marks, or a path on this machine. */
const LEAKS = /\bat [\w.<>]+ \(|node_modules|\/work\/|\.js:\d+|URIError|TypeError/;

/** One request line as written, for methods Node's own client will not send. */
function sendLine(port: number, line: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: "127.0.0.1", port }, () => {
      socket.end(`${line}\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`);
    });
    let answer = "";
    socket.on("data", (chunk) => (answer += chunk));
    socket.on("end", () => resolve(answer));
    socket.on("error", reject);
  });
}

function expectCleanRefusal(answer: RawAnswer, label: string, api: boolean) {
  expect(answer.status, label).toBeGreaterThanOrEqual(400);
  expect(answer.status, label).toBeLessThan(500);
  expect(answer.body, label).not.toMatch(LEAKS);
  if (api) {
    expect(answer.headers["content-type"], label).toMatch(/^application\/json/);
    expect((JSON.parse(answer.body) as { message: string }).message, label).toEqual(expect.any(String));
  } else {
    expect(answer.headers["content-type"], label).toMatch(/^text\/html/);
    expect(answer.body, label).toContain('<a href="/">Go to the home page</a>');
  }
}

for (const nodeEnv of ["production", "development"]) {
  test.describe(`with NODE_ENV=${nodeEnv}`, () => {
    let server: PrivateServer;
    test.beforeAll(async () => {
      server = await startPrivateServer({ name: `errors-${nodeEnv}`, env: { NODE_ENV: nodeEnv } });
    });
    test.afterAll(() => server.dispose());

    test("a malformed URL is a 400 without a stack: JSON under /api, the site's error page elsewhere", async () => {
      for (const path of MALFORMED_PATHS) {
        const answer = await sendRaw(server.url, { method: "GET", path });
        expect(answer.status, path).toBe(400);
        expectCleanRefusal(answer, path, path.startsWith("/api/"));
        const line = await server.waitForLogLine(
          (entry) => entry.event === "request.error" && entry.requestId === answer.headers["x-request-id"],
        );
        // The log keeps what the answer does not: the error and its stack, on one line.
        expect(line).toMatchObject({ level: "warn", status: 400, error: { stack: expect.any(String) } });
      }
    });

    test("a method the site does not serve is a 405 with Allow, never a 5xx", async () => {
      for (const method of UNSERVED_METHODS) {
        for (const path of ["/", "/faq", "/api/auth/login", "/financing"]) {
          const answer = await sendRaw(server.url, { method, path });
          expect(answer.status, `${method} ${path}`).toBe(405);
          expect(answer.headers["allow"], `${method} ${path}`).toBe("GET, HEAD, POST, OPTIONS");
          expectCleanRefusal(answer, `${method} ${path}`, path.startsWith("/api/"));
        }
      }
      // A method Node's parser does not know is refused before the app sees it: still a 4xx, no stack.
      const track = await sendLine(server.port, "TRACK / HTTP/1.1");
      expect(track).toMatch(/^HTTP\/1\.1 4\d\d /);
      expect(track).not.toMatch(LEAKS);
      expect(server.logLines().filter((line) => line.level === "error")).toEqual([]);
    });

    test("a refused cross-origin form and a body too large get the site's error page; the API keeps JSON", async () => {
      const foreign = await sendRaw(server.url, {
        method: "POST",
        path: "/contact",
        headers: { Origin: "https://evil.example", "Content-Type": "application/x-www-form-urlencoded" },
        body: "firstName=a",
      });
      expect(foreign.status).toBe(403);
      expectCleanRefusal(foreign, "cross-origin form", false);
      expect(foreign.body).toContain("Cross-origin request refused.");

      const large = await sendRaw(server.url, {
        method: "POST",
        path: "/financing/login",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: `email=a%40example.com&password=${"x".repeat(20_000)}`,
      });
      expect(large.status).toBe(413);
      expectCleanRefusal(large, "413 page", false);

      const largeApi = await sendRaw(server.url, {
        method: "POST",
        path: "/api/auth/login",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ email: "a@example.com", password: "x".repeat(20_000) }),
      });
      expect(largeApi.status).toBe(413);
      expectCleanRefusal(largeApi, "413 API", true);
    });

    test("behind a proxy that rewrites Host, forms from the site's own origin work, and others get a 403", async () => {
      const login = (headers: Record<string, string>) =>
        sendRaw(server.url, {
          method: "POST",
          path: "/financing/login",
          headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
          body: "email=nobody%40example.com&password=not-the-password",
        });
      // nginx's `proxy_pass http://127.0.0.1:3000` without `proxy_set_header Host` sends its upstream's host.
      const proxied: Record<string, string>[] = [
        { Host: "127.0.0.1:3000", Origin: server.url },
        { Host: "backend.internal", "X-Forwarded-Host": "elsewhere.example", Origin: server.url },
      ];
      for (const headers of proxied) {
        const answer = await login(headers);
        // The login page's own refusal of a wrong password: the form went through to the app.
        expect(answer.status, JSON.stringify(headers)).toBe(401);
        expect(answer.body).toContain("Invalid email or password");
      }
      // The API behind the same proxy: a JSON answer of the app's own, not a 500.
      for (const headers of proxied) {
        const api = await sendRaw(server.url, {
          method: "POST",
          path: "/api/auth/login",
          headers: { "Content-Type": "application/json", ...headers },
          body: JSON.stringify({ email: "nobody@example.com", password: "not-the-password" }),
        });
        expect(api.status, JSON.stringify(headers)).toBe(401);
        expect(api.headers["content-type"]).toMatch(/^application\/json/);
      }
      const foreign = await login({ Host: "127.0.0.1:3000", Origin: "https://evil.example" });
      expect(foreign.status).toBe(403);
      expectCleanRefusal(foreign, "foreign origin behind the proxy", false);
      expect(server.logLines().filter((line) => line.level === "error")).toEqual([]);
    });
  });
}
