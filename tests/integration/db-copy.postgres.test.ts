/**
 * `npm run db:copy`: an SQLite database, filled through the app's own use cases, moved into an empty
 * PostgreSQL database. Every row of every table arrives, the counts the triggers keep agree, the audit
 * chain verifies there (`npm run audit:verify` on the copy), the materials library's files arrive
 * byte for byte, and the app carries on writing onto it.
 */
import { createHash, randomBytes, randomUUID } from "node:crypto";
import path from "node:path";
import { PDFDocument } from "pdf-lib";
import { sessionCookie } from "~/http/auth.server";
import { hashSecretToken } from "~/models/account/secret-token.server";
import { toPublicUser } from "~/models/account/user.server";
import { queueAlertMail } from "~/models/alerts/alert-mails.server";
import { setAlertPreference } from "~/models/alerts/alert-preferences.server";
import { verifyAuditChain } from "~/models/audit/audit-chain.server";
import { recordAuditEvent } from "~/models/audit/audit.server";
import { saveContactMessage } from "~/models/contact/contact.server";
import { setNdaSent } from "~/models/investors/nda-flags.server";
import { openableVersion } from "~/models/library/library-access.server";
import { createDocument, setPublished } from "~/models/library/library-changes.server";
import { listLibrary } from "~/models/library/library-documents.server";
import { readersOf, recordMaterialsVisit, recordOpening } from "~/models/library/library-openings.server";
import { looksLikeMp4 } from "~/models/library/material-file.server";
import { giveConsent } from "~/models/nda/nda-consent.server";
import { copyToReview } from "~/models/nda/nda-copies.server";
import { signNda } from "~/models/nda/nda-signing.server";
import { addNdaTemplate } from "~/models/nda/nda-templates.server";
import { recordReadingBatch } from "~/models/reading/page-times.server";
import { recordVideoWatch } from "~/models/reading/video-watches.server";
import { acceptTotpCode, pendingTotpSecret } from "~/models/second-factor/totp.server";
import { BLOB_CHUNK_BYTES, readBlobRange, readWholeBlob, storeBlob } from "~/server/blob-store.server";
import { closeDatabase, getDb, migrateDatabase, type Database } from "~/server/db.server";
import { resetEnvForTests } from "~/server/env.server";
import { hitRateLimit } from "~/server/rate-limit.server";
import { accessTokenFor, createSession, createUser, enrolTotp, userRow } from "../support/factories";
import { useIntegration } from "../support/integration";
import { runScript } from "../support/run-script";
import { totpCode } from "../support/totp";

const PUBLIC_KEY = Buffer.from([0, 1, 2, 254, 255, 0x7f, 0x80]);

let postgresUrl: string;

const { database } = useIntegration();
beforeAll(async () => {
  postgresUrl = process.env.DATABASE_URL!;
});

/** Points the app at `engine`'s database for what follows. */
async function useEngine(engine: "sqlite" | "postgres") {
  await closeDatabase();
  process.env.DATABASE_URL = engine === "postgres" ? postgresUrl : "";
  resetEnvForTests();
  await migrateDatabase();
}

/**
 * The rows in each of the schema's tables, as the database itself lists them (not as db:copy does,
 * so a table the script leaves out shows here).
 */
async function countsOfEveryTable() {
  const counts: Record<string, number> = {};
  const tables = (await getDb().introspection.getTables()).map((table) => table.name as keyof Database);
  for (const table of tables) {
    const row = await getDb()
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    counts[table] = Number(row.n);
  }
  return counts;
}

function dbCopy(from: string, to: string) {
  return runScript("db-copy.js", [from, to], {});
}

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** A "video" of five chunks and a bit: an MP4's first box, then noise (the store judges only the first bytes). */
function largeVideo() {
  const bytes = randomBytes(5 * BLOB_CHUNK_BYTES + 12_345);
  bytes.writeUInt32BE(24, 0);
  bytes.write("ftypisom", 4, "latin1");
  return bytes;
}

async function* pieces(bytes: Buffer, size: number) {
  for (let at = 0; at < bytes.byteLength; at += size) yield bytes.subarray(at, at + size);
}

/** A video in the library for one chosen investor, opened by them, who has visited the materials page. */
async function fillLibrary(admin: { id: string; email: string }, video: Buffer) {
  const investor = toPublicUser(await createUser({ signed: true }));
  const stored = await storeBlob(pieces(video, 256 * 1024 + 3), {
    limitFor: (head) => (looksLikeMp4(head) ? video.byteLength : null),
  });
  const created = await createDocument(
    {
      title: "Site visit",
      description: "Five chunks and a bit",
      kind: "video",
      audience: "chosen",
      chosenUserIds: [investor.id],
      upload: {
        blobId: stored.id,
        fileName: "visit.mp4",
        contentType: "video/mp4",
        size: stored.size,
        sha256: stored.sha256,
      },
    },
    { user: admin, ip: null },
  );
  if (!created.ok) throw new Error(created.message);
  await setPublished(created.id, true, { user: admin, ip: null });
  const opened = await openableVersion(investor, created.id, null);
  if (!opened.ok) throw new Error(opened.message);
  await recordOpening(investor, opened.document, null);
  await recordMaterialsVisit(investor.id);
  // Reading time (migration 021): half a second on a PDF copy's first page, and of the video played.
  const deck = (await listLibrary()).find((document) => document.kind === "pdf")!;
  const copy = await recordOpening(investor, deck, null);
  const batch = { downloadId: copy, stream: randomUUID(), batch: 1, pages: [{ page: 1, ms: 500 }] };
  expect(await recordReadingBatch(investor, deck.id, batch)).toEqual({ ok: true });
  const watched = { durationMs: 60_000, stoppedAtMs: 500, ranges: [[0, 500]] as [number, number][] };
  expect(await recordVideoWatch(investor, created.id, watched)).toEqual({ ok: true });
  return { documentId: created.id, blobId: stored.id, investorEmail: investor.email };
}

/** An NDA template, and an investor's consent, copy and signature, through the app's own functions. */
async function fillNda(admin: { id: string; email: string }) {
  const pdf = await PDFDocument.create();
  pdf.addPage();
  const added = await addNdaTemplate({ bytes: await pdf.save(), fileName: "nda.pdf" }, admin);
  if (!added.ok) throw new Error(added.message);
  const row = await createUser({ fullName: "Ned Archer", address: "3 Copy Road" });
  const signer = { id: row.id, email: row.email, fullName: row.full_name };
  await giveConsent(signer, { agreed: true, ip: "192.0.2.50", userAgent: null });
  const copy = await copyToReview(row.id, null);
  if (!copy.ok) throw new Error(copy.message);
  const signed = await signNda(signer, {
    typedName: "Ned Archer",
    copySha256: copy.copy.sha256,
    intent: true,
    authMethod: "password",
    ip: "192.0.2.50",
    userAgent: null,
  });
  if (!signed.ok) throw new Error(signed.message);
}

test(
  "db:copy moves a filled SQLite database into PostgreSQL: every row, and the audit chain whole",
  { timeout: 120_000 },
  async () => {
    // Fill the SQLite file the way the site would.
    await useEngine("sqlite");
    const admin = await createUser({ named: true, role: "administrator", password: "Copy-Admin-Passphrase-1" });
    for (let i = 0; i < 240; i++) {
      const investor = await createUser({ named: i % 2 === 0 });
      if (i % 10 === 0) await createSession(investor.id);
      if (i % 15 === 0) await accessTokenFor(investor.id);
      if (i % 3 === 0 && i % 2 === 0) await setNdaSent({ actor: admin, email: investor.email, state: true });
    }
    for (let i = 0; i < 30; i++)
      await recordAuditEvent({ actorEmail: admin.email, action: "test.copied", details: { i } });
    // The administrator's alerts (migration 022): their choice, and a mail written and not yet sent.
    await setAlertPreference(admin, { mode: "digest", digestHour: 7 }, { ip: null, via: "page" });
    const draft = { key: `digest:${admin.id}:2026-11-29`, user_id: admin.id, kind: "digest" as const };
    expect(await queueAlertMail({ ...draft, subject: "Your daily digest", body: "Nothing was read." })).toBe(true);
    // The second factor's and the throttles' tables, a passkey's key bytes among them.
    const at = Date.now();
    // What follows the materials (migration 023): the firm's switches, a question with an edited
    // published answer, a qualification, a verification and an indication of interest.
    await getDb().updateTable("portal_features").set({ questions: 1, interest_notice: "Not an offer." }).execute();
    const asked = { id: randomUUID(), user_id: admin.id, body: "When?", status: "answered" as const, created_at: at };
    await getDb()
      .insertInto("questions")
      .values({ ...asked, published_answer: "Soon.", answered_by: admin.id, answered_at: at, published_at: at })
      .execute();
    await getDb()
      .insertInto("answer_edits")
      .values({ id: randomUUID(), question_id: asked.id, body: "Later.", replaced_by: admin.id, replaced_at: at })
      .execute();
    const own = { id: randomUUID(), user_id: admin.id, created_at: at };
    await getDb()
      .insertInto("qualification_statements")
      .values({ ...own, category: "income", stated_on: "2026-11-01" })
      .execute();
    await getDb()
      .insertInto("verifications")
      .values({ ...own, method: "letter", verified_on: "2026-11-02", note: "CPA", expires_at: at + 1 })
      .execute();
    await getDb()
      .insertInto("interest_indications")
      .values({ ...own, amount: 250_000, note: "", withdrawn: 0 })
      .execute();
    await enrolTotp(admin.id, "JBSWY3DPEHPK3PXP");
    await getDb()
      .insertInto("recovery_codes")
      .values({ code_hash: "c".repeat(64), user_id: admin.id, created_at: at, used_at: null })
      .execute();
    await getDb()
      .insertInto("passkeys")
      .values({
        id: "cred-1",
        user_id: admin.id,
        public_key: PUBLIC_KEY,
        counter: 3,
        transports: '["usb"]',
        created_at: at,
        last_used_at: null,
      })
      .execute();
    await getDb()
      .insertInto("login_challenges")
      .values({
        id_hash: "h".repeat(64),
        kind: "passkey_login",
        user_id: admin.id,
        challenge: "abc",
        created_at: at,
        expires_at: at + 60_000,
      })
      .execute();
    await getDb()
      .insertInto("one_time_tokens")
      .values({
        token_hash: "t".repeat(64),
        user_id: admin.id,
        purpose: "reset",
        created_at: at,
        expires_at: at + 60_000,
        used_at: null,
      })
      .execute();
    // An address with its lines (migration 019).
    const lined = await createUser({
      named: true,
      address: "1 Main Street Suite 200",
      addressLines: "1 Main Street\nSuite 200",
    });
    // An administrator invited by another (users.created_by), and a pending invitation.
    const invited = await createUser({ role: "administrator" });
    await getDb()
      .updateTable("users")
      .set({ created_by: admin.id, created_via: "invitation" })
      .where("id", "=", invited.id)
      .execute();
    await getDb()
      .insertInto("admin_invitations")
      .values({
        id: "invitation-1",
        token_hash: "i".repeat(64),
        email: "invitee@example.com",
        invited_by: invited.id,
        created_at: at,
        expires_at: at + 60_000,
      })
      .execute();
    const { cookie } = await createSession(admin.id);
    await pendingTotpSecret(admin.id, hashSecretToken((await sessionCookie().parse(cookie)) as string));
    await hitRateLimit("auth-ip:192.0.2.1", { limit: 10, windowMs: 60_000 });
    await saveContactMessage({
      firstName: "Ada",
      lastName: "Lovelace",
      email: "ada@example.com",
      message: "Hello",
      ip: "192.0.2.1",
    });
    const video = largeVideo();
    const library = await fillLibrary(admin, video);
    await fillNda(admin);
    const titlesBefore = (await listLibrary()).map((document) => document.title);
    const before = await countsOfEveryTable();
    expect(before.blob_chunks).toBeGreaterThan(6);
    const chainBefore = await verifyAuditChain();
    expect(chainBefore.ok).toBe(true);
    expect(before.audit_events).toBeGreaterThan(40);
    await closeDatabase();

    const copy = await dbCopy(process.env.DATABASE_PATH!, postgresUrl);
    expect(copy.code, copy.output).toBe(0);
    expect(copy.output).toMatch(/^Copied \d+ rows from /);

    await useEngine("postgres");
    expect(await countsOfEveryTable()).toEqual(before);
    expect(Object.keys(before)).toEqual(
      expect.arrayContaining([
        "users",
        "audit_events",
        "passkeys",
        "admin_invitations",
        "nda_templates",
        "nda_consents",
        "nda_copies",
        "nda_signatures",
      ]),
    );
    for (const [table, n] of Object.entries(before)) expect(n, `${table} was filled`).toBeGreaterThan(0);
    // The library: its documents in their order, the video's six chunks byte for byte, a range from its middle.
    expect((await listLibrary()).map((document) => document.title)).toEqual(titlesBefore);
    expect(sha256(await readWholeBlob(library.blobId))).toBe(sha256(video));
    const middle = Math.floor(video.byteLength / 2);
    const range = Buffer.from(await new Response(readBlobRange(library.blobId, middle, middle + 99_999)).arrayBuffer());
    expect(range.equals(video.subarray(middle, middle + 100_000))).toBe(true);
    expect(await readersOf(library.documentId)).toMatchObject([{ email: library.investorEmail, opens: 1 }]);
    expect(await userRow(lined.id)).toMatchObject({
      address: "1 Main Street Suite 200",
      address_lines: "1 Main Street\nSuite 200",
    });
    const passkey = await getDb().selectFrom("passkeys").selectAll().executeTakeFirstOrThrow();
    expect(Buffer.from(passkey.public_key)).toEqual(PUBLIC_KEY);
    expect(await verifyAuditChain()).toEqual(chainBefore);
    // The authenticator secret arrived encrypted as it was, and opens under the same DATA_KEY.
    expect(await acceptTotpCode(admin.id, totpCode("JBSWY3DPEHPK3PXP", Date.now()))).toBe(true);
    const verified = await runScript("audit-verify.ts", [], {
      DATABASE_URL: postgresUrl,
      DATABASE_PATH: path.join(database.dir, "unused.sqlite"),
    });
    expect(verified.code, verified.output).toBe(0);
    expect(verified.output).toContain(`Verified: ${before.audit_events} rows unaltered`);

    // The copy is a working database: a new row chains on, with an id after the copied ones.
    await recordAuditEvent({ action: "test.after_copy" });
    expect(await verifyAuditChain()).toMatchObject({ ok: true, rows: before.audit_events + 1 });

    // A second copy into the now-filled database is refused, and changes nothing.
    const again = await dbCopy(process.env.DATABASE_PATH!, postgresUrl);
    expect(again.code).toBe(1);
    expect(again.output).toContain("is not empty");
    expect((await countsOfEveryTable()).users).toBe(before.users);
  },
);
