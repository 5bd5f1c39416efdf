import { expect, test } from "@playwright/test";
import { withDatabaseFile } from "../support/database-file";
import { unusedTotpCode } from "../support/totp";
import { startPrivateServer, type PrivateServer } from "./support/private-server";

/**
 * SIGKILL in the middle of a stream of sign-ups and administrator NDA changes
 * (the built server on its own database): after a restart on the same files
 * the database passes `PRAGMA integrity_check`, every change that was answered
 * with success is there, and the site serves again.
 */

const ADMIN = { email: "crash-admin@example.com", password: "Crash-Admin-Passphrase-52" };
const PASSWORD = "Crash-Investor-Passphrase-52";
const WORKERS = 4;
/** Kill once this many investors have been through the whole stream (sign-up, NDA sent, NDA signed). */
const FULLY_ANSWERED_BEFORE_KILL = 8;

let server: PrivateServer;

test.afterAll(async () => {
  await server?.dispose();
});

type Acknowledged = { signedUp: Set<string>; ndaSent: Set<string>; ndaSigned: Set<string>; cutOff: number };

async function post(path: string, body: unknown, bearer?: string) {
  const response = await fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(bearer ? { Authorization: `Bearer ${bearer}` } : {}) },
    body: JSON.stringify(body),
  });
  return response.status;
}

/**
 * One client of the stream: signs an investor up and verifies the address, then (as the administrator)
 * names them and marks their NDA sent, then signed, and records each change only once it was
 * answered with success. A request the kill cuts off is counted, not recorded.
 */
async function streamOfChanges(worker: number, adminBearer: string, done: Acknowledged) {
  for (let n = 0; ; n += 1) {
    const email = `crash.${worker}.${n}@example.com`;
    try {
      if ((await post("/api/auth/register", { email, password: PASSWORD })) !== 201) return;
      done.signedUp.add(email);
      // An NDA is marked only for a verified address with a name and address given.
      const mail = await server.smtp.mailTo(email, /verify/i, 10_000);
      const token = mail.text.match(/\/auth\/verify\/([A-Za-z0-9_-]{43})\b/)![1];
      if ((await fetch(`${server.url}/api/auth/verify/${token}`)).status !== 200) return;
      const details = { email, full_name: `Crash ${worker}.${n}`, address: "1 Crash Road" };
      if ((await post("/api/user/set_name_address", details, adminBearer)) !== 201) return;
      if ((await post("/api/user/update_nda_sent", { email, state: true }, adminBearer)) !== 201) return;
      done.ndaSent.add(email);
      if ((await post("/api/user/update_nda_signed", { email, state: true }, adminBearer)) !== 201) return;
      done.ndaSigned.add(email);
    } catch {
      done.cutOff += 1;
      return;
    }
  }
}

test("SIGKILL mid-stream: after a restart the database is intact and every answered change is there", async () => {
  test.setTimeout(180_000);
  server = await startPrivateServer({ name: "sigkill", env: { AUTH_RATE_LIMIT_PER_MINUTE: "100000" } });
  const adminSecret = await server.createAdministrator(ADMIN.email, ADMIN.password);
  const login = await fetch(`${server.url}/api/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ ...ADMIN, code: await unusedTotpCode(adminSecret) }),
  });
  expect(login.status).toBe(200);
  const { accessToken } = (await login.json()) as { accessToken: string };

  const done: Acknowledged = { signedUp: new Set(), ndaSent: new Set(), ndaSigned: new Set(), cutOff: 0 };
  const streams = Array.from({ length: WORKERS }, (_, worker) => streamOfChanges(worker, accessToken, done));
  await expect
    .poll(() => done.ndaSigned.size, { timeout: 120_000, intervals: [25] })
    .toBeGreaterThanOrEqual(FULLY_ANSWERED_BEFORE_KILL);
  expect(await server.kill("SIGKILL")).toBeNull();
  await Promise.all(streams);
  // Every client stream ended on a request the kill cut off (none on a refusal).
  expect(done.cutOff).toBe(WORKERS);

  await server.restart();
  withDatabaseFile(
    server.databasePath,
    (db) => {
      expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
      const stored = new Map(
        (
          db.prepare("select email, is_nda_sent, is_nda_signed from users where role = 'investor'").all() as {
            email: string;
            is_nda_sent: number;
            is_nda_signed: number;
          }[]
        ).map((row) => [row.email, row]),
      );
      const missing = [...done.signedUp].filter((email) => !stored.has(email));
      const sentLost = [...done.ndaSent].filter((email) => stored.get(email)?.is_nda_sent !== 1);
      const signedLost = [...done.ndaSigned].filter((email) => stored.get(email)?.is_nda_signed !== 1);
      expect({ missing, sentLost, signedLost }).toEqual({ missing: [], sentLost: [], signedLost: [] });
      console.log(
        `SIGKILL: ${done.signedUp.size} sign-ups, ${done.ndaSent.size + done.ndaSigned.size} NDA changes answered ` +
          `with success before the kill, all present after the restart; ${done.cutOff} requests cut off; ` +
          `${stored.size} investors stored.`,
      );
    },
    { readonly: true },
  );

  // The restarted server serves from the same file: the administrator's token still works, the investors are listed.
  const list = await fetch(`${server.url}/api/user/get_investors`, {
    headers: { Authorization: `Bearer ${accessToken}` },
  });
  expect(list.status).toBe(200);
  const { users } = (await list.json()) as { users: { email: string; isNDASigned: boolean }[] };
  for (const email of done.ndaSigned) expect(users.find((user) => user.email === email)?.isNDASigned, email).toBe(true);
});
