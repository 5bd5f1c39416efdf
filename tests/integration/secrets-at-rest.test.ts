/**
 * Secrets at rest: an authenticator app's secret is stored encrypted under DATA_KEY (AES-256-GCM),
 * bound to its account, and a key is rotated by listing the new one first and running
 * `npm run data:rekey`. On both engines.
 */
import { randomBytes } from "node:crypto";
import { acceptTotpCode, rekeyStoredSecrets } from "~/models/second-factor/totp.server";
import { now, testClock } from "~/server/clock.server";
import { closeDatabase, getDb } from "~/server/db.server";
import { resetEnvForTests } from "~/server/env.server";
import { createUser, enrolTotp } from "../support/factories";
import { useIntegration } from "../support/integration";
import { runScript } from "../support/run-script";
import { TEST_KEYS } from "../support/test-keys";
import { totpCode } from "../support/totp";

useIntegration({ database: "each" });
beforeEach(() => testClock.freeze(Date.now()));

const storedSecret = async (userId: string) =>
  (
    await getDb()
      .selectFrom("totp_credentials")
      .select("secret")
      .where("user_id", "=", userId)
      .executeTakeFirstOrThrow()
  ).secret!;

/** Points the app at another DATA_KEY setting, as a restart with a changed .env would. */
async function restartWithDataKey(setting: string) {
  await closeDatabase();
  process.env.DATA_KEY = setting;
  resetEnvForTests();
}

/** A code of the next 30-second step: the app takes each step's code once. */
function nextCode(secret: string) {
  testClock.advance(30_000);
  return totpCode(secret, now());
}

it("stores an authenticator's secret encrypted, never in clear, and it still checks codes", async () => {
  const user = await createUser();
  const secret = await enrolTotp(user.id);
  const stored = await storedSecret(user.id);
  expect(stored).toMatch(/^v1\.[0-9a-f]{8}\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/);
  expect(stored).not.toContain(secret);
  expect(Buffer.from(stored.split(".")[3], "base64url").toString("latin1")).not.toContain(secret);
  expect(await acceptTotpCode(user.id, nextCode(secret))).toBe(true);
});

it("binds the ciphertext to its account: copied onto another account's row, it does not open", async () => {
  const [owner, other] = [await createUser(), await createUser()];
  await enrolTotp(owner.id);
  const otherSecret = await enrolTotp(other.id);
  await getDb()
    .updateTable("totp_credentials")
    .set({ secret: await storedSecret(owner.id) })
    .where("user_id", "=", other.id)
    .execute();
  await expect(acceptTotpCode(other.id, nextCode(otherSecret))).rejects.toThrow(
    /Unsupported state or unable to authenticate data/,
  );
});

it("rotates DATA_KEY: old and new both open until data:rekey, then the new alone does", async () => {
  const user = await createUser();
  const secret = await enrolTotp(user.id);
  const newKey = randomBytes(32).toString("hex");

  await restartWithDataKey(`${newKey},${TEST_KEYS.DATA_KEY}`);
  expect(await acceptTotpCode(user.id, nextCode(secret))).toBe(true);
  const run = await runScript("data-rekey.ts", [], {
    DATABASE_PATH: process.env.DATABASE_PATH!,
    DATABASE_URL: process.env.DATABASE_URL ?? "",
    DATA_KEY: `${newKey},${TEST_KEYS.DATA_KEY}`,
  });
  expect(run.code, run.output).toBe(0);
  expect(run.output).toContain("Secrets re-encrypted under DATA_KEY's first key: 1; already under it: 0.");
  expect(await rekeyStoredSecrets()).toEqual({ rekeyed: 0, current: 1 });

  await restartWithDataKey(newKey);
  expect(await acceptTotpCode(user.id, nextCode(secret))).toBe(true);
  await restartWithDataKey(TEST_KEYS.DATA_KEY);
  await expect(acceptTotpCode(user.id, nextCode(secret))).rejects.toThrow(
    /a key \([0-9a-f]{8}\) that DATA_KEY no longer holds/,
  );
});
