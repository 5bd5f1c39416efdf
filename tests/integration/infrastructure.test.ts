import fs from "node:fs";
import path from "node:path";
import { issueApiTokens } from "~/models/account/api-token.server";
import { listLibrary } from "~/models/library/library-documents.server";
import { recordMaterialsVisit, recordOpening } from "~/models/library/library-openings.server";
import { testClock } from "~/server/clock.server";
import { getDb } from "~/server/db.server";
import { resetEnvForTests } from "~/server/env.server";
import { resetMailTransportForTests, sendMail, trySendMail } from "~/server/mail.server";
import { hitRateLimit } from "~/server/rate-limit.server";
import { createSession, createUser } from "../support/factories";
import { useIntegration } from "../support/integration";

const { smtp, database } = useIntegration({ mail: true });

describe("the database", () => {
  it("has every table of the migrations, and deletes a user's rows with the user", async () => {
    const tables = await getDb().introspection.getTables();
    expect(tables.map((t) => t.name).sort()).toEqual(
      [
        "admin_invitations",
        "alert_mails",
        "alert_preferences",
        "answer_edits",
        "api_token_families",
        "api_tokens",
        "audit_events",
        "blob_chunks",
        "blobs",
        "contact_messages",
        "document_audience",
        "document_opens",
        "document_page_reading",
        "document_reader_reading",
        "document_readers",
        "document_reading",
        "document_versions",
        "documents",
        "interest_indications",
        "investor_counts",
        "login_challenges",
        "material_visits",
        "nda_consents",
        "nda_copies",
        "nda_signatures",
        "nda_templates",
        "one_time_tokens",
        "page_times",
        "passkeys",
        "portal_features",
        "qualification_statements",
        "questions",
        "rate_limits",
        "reader_day_reading",
        "reading_batches",
        "reading_streams",
        "recovery_codes",
        "sessions",
        "totp_credentials",
        "totp_enrolments",
        "users",
        "users_version",
        "verifications",
        "video_watches",
      ].sort(),
    );
    const user = await createUser();
    await createSession(user.id);
    const [session] = await getDb().selectFrom("sessions").select("id_hash").where("user_id", "=", user.id).execute();
    await getDb()
      .insertInto("totp_enrolments")
      .values({ session_id_hash: session.id_hash, user_id: user.id, secret: "v1.sealed", created_at: 0 })
      .execute();
    await issueApiTokens(user.id);
    const [document] = await listLibrary();
    await recordOpening(user, document, null);
    await recordMaterialsVisit(user.id);
    await getDb().insertInto("document_audience").values({ document_id: document.id, user_id: user.id }).execute();
    const at = Date.now();
    await getDb()
      .insertInto("alert_preferences")
      .values({ user_id: user.id, mode: "digest", digest_hour: 8, updated_at: at })
      .execute();
    await getDb()
      .insertInto("interest_indications")
      .values({ id: "i1", user_id: user.id, amount: 1000, note: "", withdrawn: 0, created_at: at })
      .execute();
    // A signed NDA is the firm's record: consents, copies and signatures stay when the investor goes.
    await getDb()
      .insertInto("nda_consents")
      .values({
        id: "c1",
        user_id: user.id,
        email: user.email,
        disclosure_version: "1",
        disclosure_sha256: "0".repeat(64),
        given_at: at,
        ip: null,
        user_agent: null,
        withdrawn_at: null,
      })
      .execute();
    await getDb().deleteFrom("users").where("id", "=", user.id).execute();
    for (const table of ["alert_preferences", "interest_indications"] as const)
      expect(await getDb().selectFrom(table).select("user_id").where("user_id", "=", user.id).execute()).toEqual([]);
    expect(
      await getDb().selectFrom("nda_consents").select("user_id").where("user_id", "=", user.id).execute(),
    ).toHaveLength(1);
    for (const table of ["document_opens", "document_readers", "material_visits", "document_audience"] as const)
      expect(await getDb().selectFrom(table).select("user_id").where("user_id", "=", user.id).execute()).toEqual([]);
    expect(
      await getDb().selectFrom("api_token_families").select("id").where("user_id", "=", user.id).execute(),
    ).toEqual([]);
    expect(await getDb().selectFrom("sessions").select("id_hash").where("user_id", "=", user.id).execute()).toEqual([]);
    expect(await getDb().selectFrom("totp_enrolments").selectAll().execute()).toEqual([]);
  });

  it("refuses an NDA signed without being sent", async () => {
    const insert = getDb()
      .insertInto("users")
      .values({
        id: "u1",
        email: "a@example.com",
        password_hash: "x",
        is_nda_sent: 0,
        is_nda_signed: 1,
        role: "investor",
        created_at: 0,
        updated_at: 0,
      } as never)
      .execute();
    await expect(insert).rejects.toThrow(/CHECK constraint|violates check constraint/);
  });
});

describe("hitRateLimit", () => {
  it("allows the limit, refuses the next with Retry-After, and opens again after the window", async () => {
    testClock.freeze(1_000_000);
    const rule = { limit: 3, windowMs: 60_000 };
    for (let i = 0; i < 3; i++)
      expect(await hitRateLimit("test:ip", rule)).toEqual({ allowed: true, remaining: 2 - i });
    expect(await hitRateLimit("test:ip", rule)).toEqual({ allowed: false, retryAfterSeconds: 60 });
    testClock.advance(59_000);
    expect(await hitRateLimit("test:ip", rule)).toEqual({ allowed: false, retryAfterSeconds: 1 });
    testClock.advance(1_000);
    expect(await hitRateLimit("test:ip", rule)).toEqual({ allowed: true, remaining: 2 });
  });

  it("counts each key apart", async () => {
    const rule = { limit: 1, windowMs: 60_000 };
    expect((await hitRateLimit("a", rule)).allowed).toBe(true);
    expect((await hitRateLimit("b", rule)).allowed).toBe(true);
    expect((await hitRateLimit("a", rule)).allowed).toBe(false);
  });
});

describe("sendMail", () => {
  it("delivers through SMTP", async () => {
    await sendMail({ to: "someone@example.com", subject: "Hello", text: "Body https://x.example/a" });
    const mail = await smtp.waitFor((m) => m.subject === "Hello");
    expect(mail.to).toEqual(["someone@example.com"]);
    expect(mail.text).toContain("https://x.example/a");
  });

  it("reports a refusing server instead of throwing", async () => {
    smtp.refuse(true);
    try {
      expect(await trySendMail({ to: "x@example.com", subject: "Refused", text: "t" })).toBe(false);
    } finally {
      smtp.refuse(false);
    }
  });

  it("writes to the outbox when no SMTP_URL is set", async () => {
    const smtpUrl = process.env.SMTP_URL;
    delete process.env.SMTP_URL;
    resetEnvForTests();
    resetMailTransportForTests();
    try {
      await sendMail({ to: "dev@example.com", subject: "Outbox", text: "Link http://localhost:3000/x" });
      const outbox = path.join(database.dir, "outbox");
      const files = fs.readdirSync(outbox);
      expect(files).toHaveLength(1);
      expect(fs.readFileSync(path.join(outbox, files[0]), "utf8")).toContain("Subject: Outbox");
    } finally {
      process.env.SMTP_URL = smtpUrl;
      resetEnvForTests();
      resetMailTransportForTests();
    }
  });
});
