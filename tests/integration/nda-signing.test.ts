/**
 * The NDA signed in the portal (issue 52), as the models do it on a real database and a real SMTP catcher:
 * a template version; the investor's copy offered ("NDA sent"); consent; the signature, sealed and
 * verified by pdfsig, its hash in the audit chain; the countersignature that completes it and mails both
 * sides the signed PDF; the one-sided setting; withdrawal of consent. Every bad input is refused with a
 * clear 4xx, and changes nothing: no row, no blob, no mail.
 */
import { createHash } from "node:crypto";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { firm } from "~/content/firm";
import { ndaMessages } from "~/content/nda";
import { countersignNda } from "~/models/nda/nda-completion.server";
import { activeConsent, giveConsent, withdrawConsent } from "~/models/nda/nda-consent.server";
import { copyToReview } from "~/models/nda/nda-copies.server";
import { sameName, signNda } from "~/models/nda/nda-signing.server";
import { addNdaTemplate } from "~/models/nda/nda-templates.server";
import { verifySignedNda } from "~/models/nda/nda-verify.server";
import { readWholeBlob } from "~/server/blob-store.server";
import { getDb } from "~/server/db.server";
import { resetEnvForTests } from "~/server/env.server";
import { userRow } from "../support/factories";
import { useIntegration } from "../support/integration";
import { pdfsig } from "../support/pdfsig";

const fixture = useIntegration({ mail: true });
const { smtp } = fixture;

async function templatePdf(pages: number, label = "Clause") {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let n = 1; n <= pages; n++) pdf.addPage().drawText(`${label} ${n}`, { x: 72, y: 700, font, size: 12 });
  return pdf.save();
}

const client = { ip: "192.0.2.10", userAgent: "Test Browser/1.0" };
let admin: { id: string; email: string };

async function counts() {
  const db = getDb();
  const count = async (table: "blobs" | "nda_signatures" | "nda_templates" | "nda_copies" | "nda_consents") =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    blobs: await count("blobs"),
    signatures: await count("nda_signatures"),
    templates: await count("nda_templates"),
    copies: await count("nda_copies"),
    consents: await count("nda_consents"),
    mails: smtp.messages.length,
  };
}

async function investor(fullName = "Zoë  Quinn") {
  const row = await fixture.investor("named", { fullName, address: "1 Main Street Springfield" });
  return { id: row.id, email: row.email, fullName: row.full_name };
}

const sign = (user: { id: string; email: string; fullName: string }, copySha256: string, extra = {}) =>
  signNda(user, { typedName: "zoe quinn", copySha256, intent: true, authMethod: "password", ...client, ...extra });

beforeAll(async () => {
  const row = await fixture.administrator({ email: "admin@firm.test", fullName: "Ada Admin" });
  admin = { id: row.id, email: row.email };
});

describe("the template", () => {
  it("refuses a file that is not a PDF, and one that does not render, keeping nothing", async () => {
    const before = await counts();
    const notPdf = await addNdaTemplate({ bytes: new TextEncoder().encode("hello, world"), fileName: "a.txt" }, admin);
    expect(notPdf).toEqual({ ok: false, status: 415, message: ndaMessages.templateNotPdf });
    const broken = await addNdaTemplate(
      { bytes: new TextEncoder().encode("%PDF-1.7\nnot really"), fileName: "b.pdf" },
      admin,
    );
    expect(broken).toEqual({ ok: false, status: 400, message: ndaMessages.templateUnreadable });
    expect(await counts()).toEqual(before);
  });

  it("is kept as a numbered version", async () => {
    const first = await addNdaTemplate({ bytes: await templatePdf(2), fileName: "nda.pdf" }, admin);
    expect(first).toMatchObject({ ok: true, template: { number: 1, pageCount: 2 } });
  });
});

describe("signing", () => {
  it("offers the investor's copy and sets NDA sent", async () => {
    const user = await investor();
    const offered = await copyToReview(user.id, client.ip);
    if (!offered.ok) throw new Error(offered.message);
    expect((await userRow(user.id))?.is_nda_sent).toBe(1);
    const bytes = await readWholeBlob(offered.copy.blobId);
    expect(createHash("sha256").update(bytes).digest("hex")).toBe(offered.copy.sha256);
    // Asked again, the same copy: nothing changed.
    const again = await copyToReview(user.id, client.ip);
    expect(again.ok && again.copy.id).toBe(offered.copy.id);
  });

  it("refuses each bad input with a clear 4xx, storing nothing and mailing nobody", async () => {
    const user = await investor();
    const offered = await copyToReview(user.id, client.ip);
    if (!offered.ok) throw new Error(offered.message);
    const before = await counts();
    expect(await sign(user, offered.copy.sha256)).toEqual({
      ok: false,
      status: 409,
      message: ndaMessages.consentNeeded,
    });
    await giveConsent(user, { agreed: true, ...client });
    const afterConsent = await counts();
    expect(afterConsent.consents).toBe(before.consents + 1);
    expect(await sign(user, offered.copy.sha256, { typedName: "Zoe Quinne" })).toEqual({
      ok: false,
      status: 400,
      message: ndaMessages.nameMismatch,
    });
    expect(await sign(user, "0".repeat(64))).toEqual({ ok: false, status: 400, message: ndaMessages.hashMismatch });
    expect(await sign(user, offered.copy.sha256, { intent: false })).toEqual({
      ok: false,
      status: 400,
      message: ndaMessages.intentNeeded,
    });
    // A new template version supersedes the copy reviewed: the refusal names the current version.
    await addNdaTemplate({ bytes: await templatePdf(1, "Revised clause"), fileName: "nda-2.pdf" }, admin);
    const superseded = await sign(user, offered.copy.sha256);
    expect(superseded).toEqual({ ok: false, status: 409, message: ndaMessages.superseded(2) });
    expect({ ...(await counts()), templates: afterConsent.templates }).toEqual({
      ...afterConsent,
      blobs: afterConsent.blobs + 1,
    });
  });

  it("seals the signed copy, writes its hash into the audit chain, and refuses a second signature", async () => {
    const user = await investor();
    await giveConsent(user, { agreed: true, ...client });
    const offered = await copyToReview(user.id, client.ip);
    if (!offered.ok) throw new Error(offered.message);
    const signed = await sign(user, offered.copy.sha256);
    if (!signed.ok) throw new Error(signed.message);
    expect(signed.completed).toBe(false);
    const row = await getDb()
      .selectFrom("nda_signatures")
      .selectAll()
      .where("user_id", "=", user.id)
      .executeTakeFirstOrThrow();
    const bytes = await readWholeBlob(row.signed_blob_id!);
    expect(createHash("sha256").update(bytes).digest("hex")).toBe(signed.sha256);
    const report = await pdfsig(bytes);
    expect(report).toContain("Signature is Valid.");
    expect(report).toContain("Total document signed");
    const audit = await getDb()
      .selectFrom("audit_events")
      .select("details")
      .where("target_id", "=", user.id)
      .where("action", "=", "nda.signed")
      .executeTakeFirstOrThrow();
    expect(JSON.parse(audit.details!)).toMatchObject({ sha256: signed.sha256, copySha256: offered.copy.sha256 });
    // Not complete until countersigned: the flag waits.
    expect((await userRow(user.id))?.is_nda_signed).toBe(0);
    const before = await counts();
    expect(await sign(user, offered.copy.sha256)).toEqual({
      ok: false,
      status: 409,
      message: ndaMessages.alreadySigned,
    });
    expect(await counts()).toEqual(before);
  });

  it("matches names ignoring case, accents and extra spaces, and nothing else", () => {
    expect(sameName("  zoe   QUINN ", "Zoë Quinn")).toBe(true);
    // Letters NFKD leaves whole are folded as the investor search folds them.
    expect(sameName("Soren Ostergaard-Gross", "Søren Østergaard-Gross")).toBe(true);
    expect(sameName("Lukasz Strass", "Łukasz Straß")).toBe(true);
    expect(sameName("Zoe Quin", "Zoë Quinn")).toBe(false);
    expect(sameName("", "")).toBe(false);
  });
});

describe("countersigning", () => {
  it("refuses an NDA not signed, and completes a signed one: flags set, both sides mailed the signed PDF", async () => {
    const user = await investor();
    const before = await counts();
    expect(await countersignNda(admin, user.id, client.ip)).toEqual({
      ok: false,
      status: 409,
      message: ndaMessages.notSigned,
    });
    expect(await counts()).toEqual(before);

    await giveConsent(user, { agreed: true, ...client });
    const offered = await copyToReview(user.id, client.ip);
    if (!offered.ok) throw new Error(offered.message);
    await sign(user, offered.copy.sha256);
    const done = await countersignNda(admin, user.id, client.ip);
    if (!done.ok) throw new Error(done.message);
    expect(await userRow(user.id)).toMatchObject({ is_nda_sent: 1, is_nda_signed: 1 });
    const toInvestor = await smtp.mailTo(user.email, "Your signed non-disclosure agreement");
    const toFirm = await smtp.mailTo(firm.mailboxes.investors, `Signed non-disclosure agreement: ${user.email}`);
    for (const mail of [toInvestor, toFirm]) {
      expect(mail.attachments).toHaveLength(1);
      const pdf = mail.attachments[0].content;
      expect(createHash("sha256").update(pdf).digest("hex")).toBe(done.sha256);
      expect(await pdfsig(pdf)).toContain("Signature is Valid.");
    }
    const again = await countersignNda(admin, user.id, client.ip);
    expect(again).toEqual({ ok: false, status: 409, message: ndaMessages.alreadyCountersigned });
  });
});

describe("the one-sided setting", () => {
  afterAll(() => {
    process.env.NDA_ONE_SIDED = "off";
    resetEnvForTests();
  });

  it("completes on the investor's signature alone", async () => {
    process.env.NDA_ONE_SIDED = "on";
    resetEnvForTests();
    const user = await investor();
    await giveConsent(user, { agreed: true, ...client });
    const offered = await copyToReview(user.id, client.ip);
    if (!offered.ok) throw new Error(offered.message);
    const signed = await sign(user, offered.copy.sha256);
    expect(signed).toMatchObject({ ok: true, completed: true });
    expect(await userRow(user.id)).toMatchObject({ is_nda_sent: 1, is_nda_signed: 1 });
    const mail = await smtp.mailTo(user.email, "Your signed non-disclosure agreement");
    expect(await pdfsig(mail.attachments[0].content)).toContain("Signature is Valid.");
    expect(await countersignNda(admin, user.id, client.ip)).toEqual({
      ok: false,
      status: 409,
      message: ndaMessages.oneSided,
    });
  });
});

describe("verifying a signed NDA", () => {
  it("names whose file a sealed copy is, says a changed one is not, and refuses what is not a PDF", async () => {
    const user = await investor();
    await giveConsent(user, { agreed: true, ...client });
    const offered = await copyToReview(user.id, client.ip);
    if (!offered.ok) throw new Error(offered.message);
    await sign(user, offered.copy.sha256);
    const row = await getDb()
      .selectFrom("nda_signatures")
      .select("signed_blob_id")
      .where("user_id", "=", user.id)
      .executeTakeFirstOrThrow();
    const sealed = await readWholeBlob(row.signed_blob_id!);

    const good = await verifySignedNda(sealed, admin, client.ip);
    expect(good).toMatchObject({
      ok: true,
      verification: { match: { email: user.email, kind: "signed" }, seal: "valid" },
    });

    const changed = Buffer.from(sealed);
    changed[changed.indexOf("\n%") + 2] ^= 1;
    expect(await verifySignedNda(changed, admin, client.ip)).toMatchObject({
      ok: true,
      verification: { match: null, seal: "invalid" },
    });
    // An unsigned PDF (the copy itself) is no sealed NDA.
    const copy = await readWholeBlob(offered.copy.blobId);
    expect(await verifySignedNda(copy, admin, client.ip)).toMatchObject({
      ok: true,
      verification: { match: null, seal: "none" },
    });

    const before = await getDb().selectFrom("audit_events").select("id").where("action", "=", "nda.verified").execute();
    expect(before).toHaveLength(3);
    expect(await verifySignedNda(new TextEncoder().encode("plain text"), admin, client.ip)).toEqual({
      ok: false,
      status: 415,
      message: ndaMessages.verifyNotPdf,
    });
  });
});

describe("consent", () => {
  it("needs the box ticked, and once withdrawn is recorded and mailed to the firm", async () => {
    const user = await investor();
    const before = await counts();
    expect(await giveConsent(user, { agreed: false, ...client })).toEqual({
      ok: false,
      status: 400,
      message: ndaMessages.consentNotTicked,
    });
    expect(await counts()).toEqual(before);
    expect(await withdrawConsent(user, client)).toEqual({
      ok: false,
      status: 409,
      message: ndaMessages.noConsentToWithdraw,
    });
    await giveConsent(user, { agreed: true, ...client });
    expect(await withdrawConsent(user, client)).toEqual({ ok: true });
    expect(await activeConsent(user.id)).toBeNull();
    await smtp.mailTo(firm.mailboxes.investors, `Consent to electronic records withdrawn: ${user.email}`);
    const actions = await getDb()
      .selectFrom("audit_events")
      .select("action")
      .where("target_id", "=", user.id)
      .orderBy("id")
      .execute();
    expect(actions.map((a) => a.action)).toEqual([
      "nda.consent.given",
      "nda.consent.withdrawn",
      "nda.consent.withdrawal_mailed",
    ]);
  });
});
