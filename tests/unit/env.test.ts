import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseEnv } from "~/utils/env.server";

describe("parseEnv", () => {
  it("works with nothing configured", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "env-"));
    const env = parseEnv({ DATABASE_PATH: path.join(dir, "x.sqlite") });
    expect(env.port).toBe(3000);
    expect(env.appUrl.href).toBe("http://localhost:3000/");
    expect(env.secureCookies).toBe(false);
    expect(env.outboxDir).toBe(path.join(dir, "outbox"));
    expect(env.sessionSecrets).toHaveLength(1);
    // The generated secret is kept, so a restart keeps sessions valid.
    expect(parseEnv({ DATABASE_PATH: path.join(dir, "x.sqlite") }).sessionSecrets).toEqual(env.sessionSecrets);
  });

  it("reads lists and turns https on", () => {
    const env = parseEnv({
      APP_URL: "https://portal.example.com",
      SESSION_SECRET: "new, old",
      API_ALLOWED_ORIGINS: "https://a.example.com/, https://b.example.com",
      TRUST_PROXY: "1",
    });
    expect(env.secureCookies).toBe(true);
    expect(env.sessionSecrets).toEqual(["new", "old"]);
    expect(env.apiAllowedOrigins).toEqual(["https://a.example.com", "https://b.example.com"]);
    expect(env.trustProxy).toBe(1);
  });

  it("refuses a bad value with a clear message", () => {
    expect(() => parseEnv({ PORT: "http", SESSION_SECRET: "s" })).toThrow(/PORT/);
    expect(() => parseEnv({ APP_URL: "not a url", SESSION_SECRET: "s" })).toThrow(/APP_URL/);
  });
});
