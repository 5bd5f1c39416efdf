import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { firmSettingsFrom } from "~/content/firm";
import {
  parseEnv,
  placeholderWarnings,
  productionConfigurationProblems,
  SESSION_SECRET_MIN_LENGTH,
} from "~/server/env.server";

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
    expect(() => parseEnv({ AUDIT_KEY: "too short", SESSION_SECRET: "s" })).toThrow(/AUDIT_KEY/);
  });

  it("reads AUDIT_KEY, and takes an empty one as unset: no key file until an export asks for one", () => {
    const key = "k".repeat(32);
    expect(parseEnv({ AUDIT_KEY: ` ${key} `, SESSION_SECRET: "s" }).auditKey).toBe(key);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "env-"));
    expect(parseEnv({ AUDIT_KEY: "", SESSION_SECRET: "s", DATABASE_PATH: path.join(dir, "x.sqlite") }).auditKey).toBe(
      undefined,
    );
    expect(fs.existsSync(path.join(dir, "audit-key"))).toBe(false);
  });
});

describe("productionConfigurationProblems", () => {
  const ready = {
    SMTP_URL: "smtp://mail.example.com:587",
    APP_URL: "https://portal.example.com",
    SESSION_SECRET: "s".repeat(SESSION_SECRET_MIN_LENGTH),
    CONTACT_EMAIL: "info@firm.test",
  };

  it("has nothing to say when everything a launch needs is set", () => {
    expect(productionConfigurationProblems(ready)).toEqual([]);
    expect(productionConfigurationProblems({ ...ready, APP_URL: "http://127.0.0.1:3000" })).toEqual([]);
    expect(productionConfigurationProblems({ ...ready, APP_URL: "http://localhost:8080" })).toEqual([]);
  });

  it("names each missing setting in a line of its own", () => {
    const problems = productionConfigurationProblems({});
    expect(problems).toHaveLength(4);
    for (const [index, name] of ["SMTP_URL", "APP_URL", "SESSION_SECRET", "CONTACT_EMAIL"].entries()) {
      expect(problems[index]).toMatch(new RegExp(`^${name} is not set`));
    }
    expect(productionConfigurationProblems({ ...ready, SMTP_URL: " " })).toEqual([expect.stringMatching(/^SMTP_URL/)]);
  });

  it("refuses http:// for a public host and a short secret", () => {
    expect(productionConfigurationProblems({ ...ready, APP_URL: "http://portal.example.com" })).toEqual([
      "APP_URL must be https:// for a host other than loopback (it is http://portal.example.com).",
    ]);
    expect(productionConfigurationProblems({ ...ready, SESSION_SECRET: "short" })).toEqual([
      expect.stringMatching(/^SESSION_SECRET is too short/),
    ]);
    // A rotated-out secret must be as long as the current one.
    expect(productionConfigurationProblems({ ...ready, SESSION_SECRET: `${ready.SESSION_SECRET},old` })).toHaveLength(
      1,
    );
  });

  it("only warns about the firm's other placeholders", () => {
    expect(placeholderWarnings(ready)).toEqual(
      ["FIRM_NAME", "FIRM_SHORT_NAME", "ATS_NAME", "PARENT_COMPANY", "SOCIAL_LABEL", "SOCIAL_URL"].map(
        (name) => `${name} is not set: the site shows a placeholder where it is used.`,
      ),
    );
    expect(placeholderWarnings({ ...ready, FIRM_NAME: "Acme Securities LLC" })).not.toContainEqual(
      expect.stringMatching(/^FIRM_NAME/),
    );
  });
});

describe("firmSettingsFrom", () => {
  it("sends every mailbox to CONTACT_EMAIL unless a separate one is set", () => {
    expect(firmSettingsFrom({ CONTACT_EMAIL: "info@firm.test" }).mailboxes).toEqual({
      info: "info@firm.test",
      institutional: "info@firm.test",
      investors: "info@firm.test",
    });
    expect(
      firmSettingsFrom({ CONTACT_EMAIL: "info@firm.test", INVESTORS_EMAIL: "ir@firm.test" }).mailboxes.investors,
    ).toBe("ir@firm.test");
  });

  it("takes the firm's names and social link from the environment", () => {
    const settings = firmSettingsFrom({
      FIRM_NAME: "Acme Securities LLC",
      FIRM_SHORT_NAME: "Acme",
      ATS_NAME: "Acme ATS",
      PARENT_COMPANY: "Acme Holdings Inc.",
      SOCIAL_URL: "https://social.example/acme",
    });
    expect(settings).toMatchObject({
      name: "Acme Securities LLC",
      shortName: "Acme",
      atsName: "Acme ATS",
      parentCompany: "Acme Holdings Inc.",
      social: { url: "https://social.example/acme" },
    });
  });

  it("gives the mail sender the configured firm and mailbox", () => {
    const env = parseEnv({ SESSION_SECRET: "s", CONTACT_EMAIL: "info@firm.test", FIRM_NAME: "Acme Securities LLC" });
    expect(env.contactEmail).toBe("info@firm.test");
    expect(env.mailFrom).toBe("Acme Securities LLC <info@firm.test>");
  });
});
