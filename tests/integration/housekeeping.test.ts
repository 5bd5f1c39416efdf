import { issueApiTokens } from "~/models/account/api-token.server";
import { createOneTimeToken } from "~/models/account/one-time-token.server";
import { SESSION_IDLE_MS } from "~/models/account/session.server";
import { createOrPromoteAdministrator } from "~/models/administrators/create-admin.server";
import { recordAuditEvent } from "~/models/audit/audit.server";
import { UPLOAD_LIFETIME_MS, pruneExpiredRows } from "~/models/housekeeping.server";
import { PdfStampCheck, runningStampChecks } from "~/models/library/pdf-stamp-check.server";
import { storeBlob } from "~/server/blob-store.server";
import { testClock } from "~/server/clock.server";
import { getDb } from "~/server/db.server";
import { hitRateLimit } from "~/server/rate-limit.server";
import { createSession } from "../support/factories";
import { useIntegration } from "../support/integration";
import { countRows as count } from "../support/library-rows";

const MINUTE_MS = 60_000;
let userId: string;

useIntegration();
beforeAll(async () => {
  const created = await createOrPromoteAdministrator({
    email: "keeper@example.com",
    password: "a long test passphrase",
  });
  userId = created.user.id;
});

describe("housekeeping", () => {
  it("shrinks a filled rate_limits to the windows still open", async () => {
    testClock.freeze(Date.now());
    for (let i = 0; i < 500; i++)
      await hitRateLimit(`auth:10.0.${Math.floor(i / 250)}.${i % 250}`, { limit: 10, windowMs: MINUTE_MS });
    testClock.advance(2 * MINUTE_MS);
    for (let i = 0; i < 3; i++) await hitRateLimit(`auth:192.0.2.${i}`, { limit: 10, windowMs: MINUTE_MS });
    expect(await count("rate_limits")).toBe(503);

    const pruned = await pruneExpiredRows();

    expect(pruned.rateLimits).toBe(500);
    expect(await count("rate_limits")).toBe(3);
    // The windows still open keep counting where they were.
    expect(await hitRateLimit("auth:192.0.2.0", { limit: 2, windowMs: MINUTE_MS })).toEqual({
      allowed: true,
      remaining: 0,
    });
    expect(await hitRateLimit("auth:192.0.2.0", { limit: 2, windowMs: MINUTE_MS })).toMatchObject({ allowed: false });
  });

  it("deletes idle and expired sessions, spent links and expired tokens, and keeps the audit rows", async () => {
    testClock.freeze(Date.now());
    await createSession(userId);
    await createOneTimeToken(userId, "reset");
    await issueApiTokens(userId);
    await recordAuditEvent({ action: "housekeeping.test", targetId: userId });
    expect(await count("sessions")).toBe(1);
    expect(await count("api_tokens")).toBe(2);

    // Past the session's idle window, the reset link's hour and the access token's 15 minutes.
    testClock.advance(SESSION_IDLE_MS + 31 * MINUTE_MS);
    await createSession(userId);
    const auditRows = await count("audit_events");
    const pruned = await pruneExpiredRows();

    expect(pruned).toMatchObject({ sessions: 1, oneTimeTokens: 1, apiTokens: 1 });
    expect(await count("sessions")).toBe(1);
    expect(await count("one_time_tokens")).toBe(0);
    // The refresh token lives as long as its login, so that its reuse is still recognised.
    expect(await getDb().selectFrom("api_tokens").select("kind").execute()).toEqual([{ kind: "refresh" }]);
    expect(await count("audit_events")).toBe(auditRows);

    testClock.advance(12 * 60 * MINUTE_MS);
    expect(await pruneExpiredRows()).toMatchObject({ sessions: 1, apiTokens: 1 });
    expect(await count("audit_events")).toBe(auditRows);
  });

  it("ends the stamping checks and deletes the incomplete blobs of uploads older than any upload lasts", async () => {
    testClock.freeze(Date.now());
    // What a request that was lost mid-way leaves: a blob never completed, and a check never asked its verdict.
    const pieces = async function* () {
      yield Buffer.from("%PDF-1.7\n");
    };
    await storeBlob(pieces(), { limitFor: () => 1024 });
    const check = new PdfStampCheck();
    await check.feed(Buffer.from("%PDF-1.7\n"));
    const [pid] = runningStampChecks();
    expect(pid).toEqual(expect.any(Number));

    testClock.advance(UPLOAD_LIFETIME_MS - MINUTE_MS);
    expect(await pruneExpiredRows()).toMatchObject({ abandonedUploads: 0, abandonedStampChecks: 0 });
    expect(runningStampChecks()).toEqual([pid]);

    testClock.advance(2 * MINUTE_MS);
    expect(await pruneExpiredRows()).toMatchObject({ abandonedUploads: 1, abandonedStampChecks: 1 });
    expect(runningStampChecks()).toEqual([]);
    expect(() => process.kill(pid, 0)).toThrow();
    expect(await getDb().selectFrom("blobs").select("id").where("complete", "=", 0).execute()).toEqual([]);
  });
});
