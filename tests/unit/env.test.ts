import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { firmSettingsFrom } from "~/content/firm-settings.server";
import { parseEnv, productionRulesApply } from "~/server/env.server";
import {
  AUTH_RATE_LIMIT_CEILING,
  operatingStartWarnings,
  placeholderWarnings,
  productionConfigurationProblems,
} from "~/server/production-rules.server";
import { TEST_KEYS } from "../support/test-keys";

/** Keys given, so that a parse outside production generates none into the repository's data folder. */
const keys = { AUDIT_KEY: TEST_KEYS.AUDIT_KEY, DATA_KEY: TEST_KEYS.DATA_KEY };

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
    // The NDA's signing certificate is generated beside the database on first use, under a kept passphrase.
    expect(env.nda.signingKey).toEqual({
      p12Path: path.join(dir, "nda-signing.p12"),
      passphrase: fs.readFileSync(path.join(dir, "nda-signing-passphrase"), "utf8"),
      generated: true,
    });
  });

  it("has no NDA signing key under the production rules unless one is configured", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "env-"));
    const production = { ...keys, NODE_ENV: "production", SESSION_SECRET: TEST_KEYS.SESSION_SECRET };
    expect(parseEnv({ ...production, DATABASE_PATH: path.join(dir, "x.sqlite") }).nda.signingKey).toBeNull();
    expect(fs.existsSync(path.join(dir, "nda-signing-passphrase"))).toBe(false);
    const configured = parseEnv({ ...production, NDA_SIGNING_P12: "seal.p12", NDA_SIGNING_P12_PASSPHRASE: "p" });
    expect(configured.nda).toEqual({
      signingKey: { p12Path: path.resolve("seal.p12"), passphrase: "p", generated: false },
      oneSided: false,
      retentionYears: 7,
    });
  });

  it("reads lists and turns https on", () => {
    const env = parseEnv({
      APP_URL: "https://portal.example.com",
      AUDIT_KEY: TEST_KEYS.AUDIT_KEY,
      DATA_KEY: `${TEST_KEYS.DATA_KEY}, ${TEST_KEYS.SESSION_SECRET}`,
      SESSION_SECRET: "new, old",
      API_ALLOWED_ORIGINS: "https://a.example.com/, https://b.example.com",
      TRUST_PROXY: "1",
    });
    expect(env.secureCookies).toBe(true);
    expect(env.sessionSecrets).toEqual(["new", "old"]);
    expect(env.apiAllowedOrigins).toEqual(["https://a.example.com", "https://b.example.com"]);
    expect(env.trustProxy).toBe(1);
    expect(env.dataKeys).toEqual([TEST_KEYS.DATA_KEY, TEST_KEYS.SESSION_SECRET]);
  });

  it("reads the metrics' settings: on, on no listener of their own, with no token, unless told otherwise", () => {
    expect(parseEnv({ ...keys, SESSION_SECRET: "s" }).metrics).toEqual({
      enabled: true,
      port: undefined,
      host: "127.0.0.1",
      tokens: [],
    });
    expect(
      parseEnv({
        ...keys,
        SESSION_SECRET: "s",
        METRICS: "off",
        METRICS_PORT: "9464",
        METRICS_HOST: "0.0.0.0",
        METRICS_TOKEN: "new-token, old-token",
      }).metrics,
    ).toEqual({ enabled: false, port: 9464, host: "0.0.0.0", tokens: ["new-token", "old-token"] });
    expect(() => parseEnv({ ...keys, SESSION_SECRET: "s", METRICS: "no" })).toThrow(
      /METRICS is on \(the default\) or off/,
    );
    expect(() => parseEnv({ ...keys, SESSION_SECRET: "s", METRICS_PORT: "70000" })).toThrow(/METRICS_PORT/);
  });

  it("refuses a bad value with a clear message", () => {
    expect(() => parseEnv({ ...keys, PORT: "http", SESSION_SECRET: "s" })).toThrow(/PORT/);
    expect(() => parseEnv({ ...keys, APP_URL: "not a url", SESSION_SECRET: "s" })).toThrow(/APP_URL/);
    expect(() => parseEnv({ AUDIT_KEY: "too short", SESSION_SECRET: "s" })).toThrow(/AUDIT_KEY/);
    expect(() => parseEnv({ DATA_KEY: `${TEST_KEYS.DATA_KEY},short`, SESSION_SECRET: "s" })).toThrow(/DATA_KEY/);
    expect(() => parseEnv({ SMTP_URL: "smtp://", SESSION_SECRET: "s" })).toThrow(
      /SMTP_URL must .* name the mail server's host/,
    );
    expect(() => parseEnv({ SMTP_URL: "https://mail.example.com", SESSION_SECRET: "s" })).toThrow(/SMTP_URL/);
  });

  it("reads AUDIT_KEY and DATA_KEY; outside production an unset one is generated once into the data folder, 0600", () => {
    const key = "k".repeat(32);
    expect(parseEnv({ ...keys, AUDIT_KEY: ` ${key} `, SESSION_SECRET: "s" }).auditKey).toBe(key);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "env-"));
    const local = { AUDIT_KEY: "", DATA_KEY: "", SESSION_SECRET: "s", DATABASE_PATH: path.join(dir, "x.sqlite") };
    const env = parseEnv(local);
    expect(env.auditKey).toMatch(/^[0-9a-f]{64}$/);
    expect(env.dataKeys).toEqual([expect.stringMatching(/^[0-9a-f]{64}$/)]);
    expect(env.dataKeys[0]).not.toBe(env.auditKey);
    for (const file of ["audit-key", "data-key"]) expect(fs.statSync(path.join(dir, file)).mode & 0o777).toBe(0o600);
    expect(parseEnv(local)).toMatchObject({ auditKey: env.auditKey, dataKeys: env.dataKeys });
  });

  it("generates no secret under the production rules, whatever NODE_ENV says: it refuses to run without one", () => {
    for (const source of [{ NODE_ENV: "production" }, { APP_URL: "https://portal.example.com" }]) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "env-"));
      const databasePath = path.join(dir, "x.sqlite");
      expect(() =>
        parseEnv({ ...source, SESSION_SECRET: "s", DATA_KEY: TEST_KEYS.DATA_KEY, DATABASE_PATH: databasePath }),
      ).toThrow("AUDIT_KEY is not set: it is required in production.");
      expect(() =>
        parseEnv({ ...source, SESSION_SECRET: "s", AUDIT_KEY: TEST_KEYS.AUDIT_KEY, DATABASE_PATH: databasePath }),
      ).toThrow("DATA_KEY is not set: it is required in production.");
      expect(() =>
        parseEnv({
          ...source,
          AUDIT_KEY: TEST_KEYS.AUDIT_KEY,
          DATA_KEY: TEST_KEYS.DATA_KEY,
          DATABASE_PATH: databasePath,
        }),
      ).toThrow("SESSION_SECRET is not set: it is required in production.");
      expect(fs.readdirSync(dir)).toEqual([]);
    }
  });
});

describe("productionRulesApply", () => {
  it("applies with NODE_ENV=production, or an APP_URL that is not loopback, whatever NODE_ENV says", () => {
    expect(productionRulesApply({})).toBe(false);
    expect(productionRulesApply({ NODE_ENV: "development", APP_URL: "http://localhost:3000" })).toBe(false);
    expect(productionRulesApply({ APP_URL: "http://127.0.0.1:8080" })).toBe(false);
    expect(productionRulesApply({ APP_URL: "http://[::1]:8080" })).toBe(false);
    expect(productionRulesApply({ NODE_ENV: "production" })).toBe(true);
    expect(productionRulesApply({ APP_URL: "https://portal.example.com" })).toBe(true);
    expect(productionRulesApply({ NODE_ENV: "development", APP_URL: "http://10.0.0.5:3000" })).toBe(true);
    expect(productionRulesApply({ NODE_ENV: "test", APP_URL: "https://portal.example.com" })).toBe(true);
  });
});

describe("productionConfigurationProblems", () => {
  const ready = {
    SMTP_URL: "smtp://mail.example.com:587",
    APP_URL: "https://portal.example.com",
    SESSION_SECRET: TEST_KEYS.SESSION_SECRET,
    AUDIT_KEY: TEST_KEYS.AUDIT_KEY,
    DATA_KEY: TEST_KEYS.DATA_KEY,
    CONTACT_EMAIL: "info@firm.test",
    METRICS_PORT: "9464",
    NDA_SIGNING_P12: TEST_KEYS.NDA_SIGNING_P12,
    NDA_SIGNING_P12_PASSPHRASE: TEST_KEYS.NDA_SIGNING_P12_PASSPHRASE,
  };

  it("has nothing to say when everything a launch needs is set", () => {
    expect(productionConfigurationProblems(ready)).toEqual([]);
    expect(productionConfigurationProblems({ ...ready, APP_URL: "http://127.0.0.1:3000" })).toEqual([]);
    expect(productionConfigurationProblems({ ...ready, APP_URL: "http://localhost:8080" })).toEqual([]);
  });

  it("names each missing setting in a line of its own", () => {
    const problems = productionConfigurationProblems({});
    const names = [
      "SMTP_URL",
      "APP_URL",
      "SESSION_SECRET",
      "AUDIT_KEY",
      "DATA_KEY",
      "CONTACT_EMAIL",
      "NDA_SIGNING_P12",
      "METRICS_PORT",
    ];
    expect(problems).toHaveLength(names.length);
    for (const [index, name] of names.entries()) expect(problems[index]).toMatch(new RegExp(`^${name} is not set`));
    expect(productionConfigurationProblems({ ...ready, SMTP_URL: " " })).toEqual([expect.stringMatching(/^SMTP_URL/)]);
  });

  it("refuses an NDA signing certificate its passphrase does not open, or that is not there", () => {
    expect(productionConfigurationProblems({ ...ready, NDA_SIGNING_P12_PASSPHRASE: "wrong" })).toEqual([
      expect.stringMatching(/^NDA_SIGNING_P12 \(.*\) cannot be used: /),
    ]);
    expect(productionConfigurationProblems({ ...ready, NDA_SIGNING_P12: "/nonexistent/seal.p12" })).toEqual([
      expect.stringMatching(/^NDA_SIGNING_P12 \(\/nonexistent\/seal.p12\) cannot be used: .*ENOENT/),
    ]);
  });

  it("refuses an SMTP_URL that names no host", () => {
    expect(productionConfigurationProblems({ ...ready, SMTP_URL: "smtp://" })).toEqual([
      "SMTP_URL names no mail server: write it as smtp://user:password@host:587.",
    ]);
  });

  it("refuses http:// for a public host and a short secret", () => {
    expect(productionConfigurationProblems({ ...ready, APP_URL: "http://portal.example.com" })).toEqual([
      "APP_URL must be https:// for a host other than loopback (it is http://portal.example.com).",
    ]);
    expect(productionConfigurationProblems({ ...ready, SESSION_SECRET: "short" })).toEqual([
      expect.stringMatching(/^SESSION_SECRET is too short/),
    ]);
    // A rotated-out secret must be as strong as the current one.
    expect(productionConfigurationProblems({ ...ready, SESSION_SECRET: `${ready.SESSION_SECRET},old` })).toEqual([
      expect.stringMatching(/^SESSION_SECRET \(secret 2\) is too short/),
    ]);
  });

  it.each([
    ["one character repeated", "k".repeat(40), "is one character repeated"],
    ["a short pattern repeated", "abc123".repeat(7), "repeats a pattern"],
    ["a word repeated with a tail", "letmein".repeat(5) + "2024", "repeats a pattern"],
    ["common passwords strung together", "sunshine-princess-football-12345678", "is made of common words or sequences"],
    ["a placeholder sentence", "this-is-my-very-long-secret-session-key", "is made of common words or sequences"],
    ["a keyboard run", "qwertyuiopasdfghjklzxcvbnm0123456789", "is made of common words or sequences"],
    ["too few different characters", "abab-baba-abba-baab-aabb-bbaa-abab-ba", "uses too few different characters"],
  ])("refuses %s for SESSION_SECRET, AUDIT_KEY and DATA_KEY", (_label, weak, reason) => {
    for (const name of ["SESSION_SECRET", "AUDIT_KEY", "DATA_KEY"]) {
      expect(productionConfigurationProblems({ ...ready, [name]: weak }), name).toEqual([`${name} ${reason}.`]);
    }
  });

  it("always accepts random hex and base64 secrets of the required length", () => {
    for (let i = 0; i < 500; i++) {
      for (const secret of [
        randomBytes(16).toString("hex"),
        randomBytes(24).toString("base64"),
        randomBytes(32).toString("base64url"),
      ]) {
        expect(
          productionConfigurationProblems({ ...ready, SESSION_SECRET: secret, AUDIT_KEY: secret, DATA_KEY: secret }),
        ).toEqual([]);
      }
    }
  });

  it("asks for somewhere to scrape the metrics: their own listener or a token; METRICS=off asks for neither", () => {
    const { METRICS_PORT: _unset, ...withoutPort } = ready;
    expect(productionConfigurationProblems(withoutPort)).toEqual([
      "METRICS_PORT is not set, nor METRICS_TOKEN: the metrics could not be scraped; set METRICS_PORT (a listener of their own, on loopback) or METRICS_TOKEN (a bearer token for /metrics).",
    ]);
    expect(productionConfigurationProblems({ ...withoutPort, METRICS_TOKEN: TEST_KEYS.SESSION_SECRET })).toEqual([]);
    expect(productionConfigurationProblems({ ...withoutPort, METRICS_PORT: "0" })).toEqual([]);
    expect(productionConfigurationProblems({ ...withoutPort, METRICS: "off" })).toEqual([]);
  });

  it("refuses a weak METRICS_TOKEN like the other secrets, each of a rotation's tokens", () => {
    expect(productionConfigurationProblems({ ...ready, METRICS_TOKEN: "prometheus" })).toEqual([
      "METRICS_TOKEN is too short: use at least 32 random characters.",
    ]);
    expect(
      productionConfigurationProblems({ ...ready, METRICS_TOKEN: "this-is-my-very-long-secret-metrics-token" }),
    ).toEqual(["METRICS_TOKEN is made of common words or sequences."]);
    expect(
      productionConfigurationProblems({ ...ready, METRICS_TOKEN: `${TEST_KEYS.AUDIT_KEY},${"m".repeat(40)}` }),
    ).toEqual(["METRICS_TOKEN (secret 2) is one character repeated."]);
    expect(productionConfigurationProblems({ ...ready, METRICS_TOKEN: randomBytes(32).toString("hex") })).toEqual([]);
  });

  it("refuses a raised AUTH_RATE_LIMIT_PER_MINUTE above the ceiling on a public server, not on loopback", () => {
    expect(
      productionConfigurationProblems({ ...ready, AUTH_RATE_LIMIT_PER_MINUTE: String(AUTH_RATE_LIMIT_CEILING) }),
    ).toEqual([]);
    expect(productionConfigurationProblems({ ...ready, AUTH_RATE_LIMIT_PER_MINUTE: "10000" })).toEqual([
      `AUTH_RATE_LIMIT_PER_MINUTE is 10000: a public server allows at most ${AUTH_RATE_LIMIT_CEILING} (unset: 10).`,
    ]);
    expect(
      productionConfigurationProblems({
        ...ready,
        APP_URL: "http://127.0.0.1:3000",
        AUTH_RATE_LIMIT_PER_MINUTE: "10000",
      }),
    ).toEqual([]);
  });

  it("only warns about the firm's other placeholders", () => {
    const beforeTheDefaultStartPassed = new Date("2025-11-26T12:00:00Z");
    expect(placeholderWarnings(ready, beforeTheDefaultStartPassed)).toEqual(
      ["FIRM_NAME", "FIRM_SHORT_NAME", "ATS_NAME", "PARENT_COMPANY", "SOCIAL_LABEL", "SOCIAL_URL"].map(
        (name) => `${name} is not set: the site shows a placeholder where it is used.`,
      ),
    );
    expect(
      placeholderWarnings({ ...ready, FIRM_NAME: "Acme Securities LLC" }, beforeTheDefaultStartPassed),
    ).not.toContainEqual(expect.stringMatching(/^FIRM_NAME/));
  });

  it("warns, once, when the operating start it would show has passed", () => {
    const today = new Date("2026-11-26T12:00:00Z");
    const startWarnings = (env: Record<string, string>) =>
      placeholderWarnings({ ...ready, ...env }, today).filter((warning) => warning.startsWith("OPERATING_START"));
    expect(startWarnings({})).toEqual([
      "OPERATING_START is not set, and its default (the fourth quarter of 2025) has passed: pages still say the firm expects to begin operating then.",
    ]);
    expect(startWarnings({ OPERATING_START: "Q3 2026" })).toEqual([
      "OPERATING_START (Q3 2026) has passed: pages still say the firm expects to begin operating then.",
    ]);
    expect(startWarnings({ OPERATING_START: "the fourth quarter of 2026" })).toEqual([]);
    expect(startWarnings({ OPERATING_START: "2027-Q2" })).toEqual([]);
  });
});

describe("operatingStartWarnings", () => {
  const today = new Date("2026-11-26T12:00:00Z");

  it("says nothing of a quarter that is current or to come", () => {
    expect(operatingStartWarnings({ OPERATING_START: "Q4 2026" }, today)).toEqual([]);
    expect(operatingStartWarnings({ OPERATING_START: "the first quarter of 2027" }, today)).toEqual([]);
    // The default, before it passed.
    expect(operatingStartWarnings({}, new Date("2025-12-31T23:59:59Z"))).toEqual([]);
  });

  it("names a quarter that has passed", () => {
    expect(operatingStartWarnings({ OPERATING_START: "the third quarter of 2026" }, today)).toEqual([
      "OPERATING_START (the third quarter of 2026) has passed: pages still say the firm expects to begin operating then.",
    ]);
    expect(operatingStartWarnings({ OPERATING_START: " " }, new Date("2026-01-01T00:00:00Z"))).toEqual([
      "OPERATING_START is not set, and its default (the fourth quarter of 2025) has passed: pages still say the firm expects to begin operating then.",
    ]);
  });

  it("asks for a form it can check when the setting names no quarter", () => {
    expect(operatingStartWarnings({ OPERATING_START: "early 2027" }, today)).toEqual([
      'OPERATING_START (early 2027) names no quarter this server can check: write it as "the first quarter of 2027", "Q1 2027" or "2027-Q1".',
    ]);
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

  it("shows the specification's operating start, verbatim, until OPERATING_START is set", () => {
    expect(firmSettingsFrom({}).operatingStart).toBe("the fourth quarter of 2025");
    expect(firmSettingsFrom({ OPERATING_START: " the second quarter of 2027 " }).operatingStart).toBe(
      "the second quarter of 2027",
    );
  });

  it("gives the mail sender the configured firm and mailbox", () => {
    const env = parseEnv({
      ...keys,
      SESSION_SECRET: "s",
      CONTACT_EMAIL: "info@firm.test",
      FIRM_NAME: "Acme Securities LLC",
    });
    expect(env.contactEmail).toBe("info@firm.test");
    expect(env.mailFrom).toBe("Acme Securities LLC <info@firm.test>");
  });
});
