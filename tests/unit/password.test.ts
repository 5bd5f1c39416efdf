import argon2 from "argon2";
import {
  hashPassword,
  isCommonPassword,
  needsRehash,
  passwordWork,
  verifyDummyPassword,
  verifyPassword,
} from "~/models/account/password.server";
import { registerAccount } from "~/models/account/sign-up.server";
import { coresButOne } from "~/server/cores.server";
import { getDb } from "~/server/db.server";
import { useFreshDatabase } from "../support/test-database";

let database: Awaited<ReturnType<typeof useFreshDatabase>>;

beforeAll(async () => {
  // No SMTP_URL: the verification e-mail goes to the throwaway data folder's outbox.
  database = await useFreshDatabase();
});
afterAll(async () => {
  const { settleAccountMail } = await import("~/models/account/account-mail.server");
  await settleAccountMail();
  await database.cleanup();
});

/** `$argon2id$v=19$m=19456,p=1,t=2$<salt>$<hash>`, the PHC string format. */
function parsePhc(stored: string) {
  const match = stored.match(/^\$(argon2(?:id|i|d))\$v=(\d+)\$([^$]+)\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/);
  if (!match) throw new Error("not a PHC argon2 string");
  const [, algorithm, version, parameters, salt, hash] = match;
  return {
    algorithm,
    version: Number(version),
    parameters: Object.fromEntries(
      parameters
        .split(",")
        .map((pair) => pair.split("="))
        .map(([k, v]) => [k, Number(v)]),
    ),
    saltBytes: Buffer.from(salt, "base64").length,
    hashBytes: Buffer.from(hash, "base64").length,
  };
}

describe("the stored password hash", () => {
  it("is argon2id, version 19, m=19456 KiB, t=2, p=1, with a 16-byte salt and a 32-byte hash", async () => {
    const password = "a stored password";
    expect(await registerAccount({ email: "hash.reader@example.com", password, ip: "127.0.0.1" })).toEqual({
      ok: true,
    });
    const { password_hash } = await getDb()
      .selectFrom("users")
      .select("password_hash")
      .where("email", "=", "hash.reader@example.com")
      .executeTakeFirstOrThrow();

    expect(parsePhc(password_hash)).toEqual({
      algorithm: "argon2id",
      version: 19,
      parameters: { m: 19456, t: 2, p: 1 },
      saltBytes: 16,
      hashBytes: 32,
    });
    expect(password_hash).not.toContain(password);
    expect(await verifyPassword(password_hash, password)).toBe(true);
    expect(await verifyPassword(password_hash, "another password")).toBe(false);
    expect(needsRehash(password_hash)).toBe(false);
  });

  it("salts every hash", async () => {
    const [a, b] = await Promise.all([hashPassword("same password"), hashPassword("same password")]);
    expect(a).not.toBe(b);
  });

  it("compares Unicode by its NFC form, so precomposed and combining accents match", async () => {
    const hash = await hashPassword("caf\u00e9 au lait 42");
    expect(await verifyPassword(hash, "cafe\u0301 au lait 42")).toBe(true);
  });
});

describe("verifyPassword and verifyDummyPassword", () => {
  it("never matches a malformed hash, and the dummy never matches", async () => {
    expect(await verifyPassword("not a hash", "anything")).toBe(false);
    expect(await verifyDummyPassword("dummy password that no account has")).toBe(false);
  });
});

describe("needsRehash", () => {
  it("asks for an upgrade of weaker parameters, other argon2 types and foreign formats", async () => {
    const weaker = await argon2.hash("p", { type: argon2.argon2id, memoryCost: 4096, timeCost: 2, parallelism: 1 });
    const argon2i = await argon2.hash("p", { type: argon2.argon2i, memoryCost: 19456, timeCost: 2, parallelism: 1 });
    expect(needsRehash(weaker)).toBe(true);
    expect(needsRehash(argon2i)).toBe(true);
    expect(needsRehash("$2b$10$abcdefghijklmnopqrstuuJ4u0mD8bW0w3vLrC1fJkV1Y1Qx6Qy5C")).toBe(true);
    expect(needsRehash(await hashPassword("p"))).toBe(false);
  });
});

describe("isCommonPassword", () => {
  it("refuses the most common passwords regardless of case", () => {
    for (const password of ["password", "Password1", "12345678", "QWERTYUIOP", "iloveyou", "trustno1"]) {
      expect(isCommonPassword(password), password).toBe(true);
    }
  });

  it("lets uncommon passphrases through", () => {
    for (const password of ["correct horse battery", "Tr0ub4dor&3-staple", "a quiet lake at dawn"]) {
      expect(isCommonPassword(password), password).toBe(false);
    }
  });
});

describe("room for the event loop", () => {
  test("no more than a core but one hash at once; the rest wait their turn and are all answered", async () => {
    const stored = await hashPassword("Correct horse battery staple 9");
    const checks = Array.from({ length: coresButOne() + 3 }, () =>
      verifyPassword(stored, "Correct horse battery staple 9"),
    );
    expect(passwordWork()).toEqual({ running: coresButOne(), waiting: 3 });
    expect(await Promise.all(checks)).toEqual(checks.map(() => true));
    expect(passwordWork()).toEqual({ running: 0, waiting: 0 });
  });
});
