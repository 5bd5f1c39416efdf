/**
 * The status page's NDA form (issue 52, item 3) as a browser without JavaScript sends it: the copy offered
 * once the details are given and shown at /financing/nda.pdf, and one signature form that carries the
 * consent to electronic records and "Confirm it's you" (the password, and a code where the account has a
 * factor). Each refusal is a 4xx naming what to fix, with nothing stored.
 */
import { createHash } from "node:crypto";
import { PDFDocument } from "pdf-lib";
import { accountMessages } from "~/content/account-messages";
import { firm } from "~/content/firm";
import { myDetailsContent } from "~/content/my-details";
import { NDA_DISCLOSURE_VERSION, ndaMessages } from "~/content/nda";
import { disclosureSha256, giveConsent } from "~/models/nda/nda-consent.server";
import { addNdaTemplate } from "~/models/nda/nda-templates.server";
import * as indexRoute from "~/routes/financing._index";
import * as pdfRoute from "~/routes/financing.nda[.]pdf";
import * as withdrawRoute from "~/routes/financing.security_.nda-consent";
import { getDb } from "~/server/db.server";
import { resetEnvForTests } from "~/server/env.server";
import { callRoute, routeModules } from "../support/api-routes";
import { createSession, enrolTotp, userRow } from "../support/factories";
import { useIntegration } from "../support/integration";
import { pdfsig } from "../support/pdfsig";
import { totpCode } from "../support/totp";

const routes = routeModules({ index: indexRoute, pdf: pdfRoute, withdraw: withdrawRoute });
const FORM = { "Content-Type": "application/x-www-form-urlencoded" };
const PASSWORD = "correct horse battery staple";

const fixture = useIntegration({ mail: true });
const { smtp } = fixture;

beforeAll(async () => {
  const admin = await fixture.administrator({ email: "admin@firm.test" });
  const pdf = await PDFDocument.create();
  pdf.addPage();
  await addNdaTemplate({ bytes: await pdf.save(), fileName: "nda.pdf" }, admin);
});

type Section = { step: string; copy: { sha256: string; templateVersion: number } | null; hasSecondFactor: boolean };

async function page(cookie: string) {
  const response = await callRoute(routes.index, { path: "/financing?index", headers: { Cookie: cookie } });
  return ((await response.json()) as { nda: Section }).nda;
}

/** `ip`: another address, for a test after the wrong passwords the others sent from the default one. */
const post = (cookie: string, fields: Record<string, string>, ip?: string) =>
  callRoute(routes.index, {
    method: "POST",
    path: "/financing?index",
    headers: { Cookie: cookie, ...FORM },
    body: new URLSearchParams(fields).toString(),
    ip,
  });

const signatures = (userId: string) =>
  getDb().selectFrom("nda_signatures").select(["id", "auth_method"]).where("user_id", "=", userId).execute();

const consents = (userId: string) =>
  getDb()
    .selectFrom("nda_consents")
    .select(["id", "disclosure_version", "disclosure_sha256", "withdrawn_at"])
    .where("user_id", "=", userId)
    .execute();

type Screen = {
  screen: string;
  progress: { steps: { sent: { done: boolean } }; details: { correctable: boolean } };
};

async function screen(cookie: string) {
  const response = await callRoute(routes.index, { path: "/financing?index", headers: { Cookie: cookie } });
  return (await response.json()) as Screen;
}

/** The signature form as the page sends it, the consent's box ticked. */
const signForm = (sha256: string, name = "ana maria  LOPEZ") => ({
  intent: "nda-sign",
  copySha256: sha256,
  typedName: name,
  signIntent: "on",
  agree: "on",
  password: PASSWORD,
});

const signer = (user: { id: string; email: string; full_name: string }) => ({
  id: user.id,
  email: user.email,
  fullName: user.full_name,
});

/** A named investor who logs in with a password only. */
async function investor() {
  const row = await fixture.investor("named", {
    fullName: "Ana María López",
    address: "3 High Street",
    password: PASSWORD,
  });
  return { ...row, cookie: (await createSession(row.id, { authMethod: "password" })).cookie };
}

describe("the status page", () => {
  it("offers the copy as soon as the details are given (NDA sent), and keeps them correctable until the signature", async () => {
    const user = await investor();
    const first = await page(user.cookie);
    expect(first).toMatchObject({ step: "consent-needed", copy: { templateVersion: 1 } });
    expect((await userRow(user.id))?.is_nda_sent).toBe(1);
    // The very page that offered it shows the NDA sent, and the details still open.
    expect(await screen(user.cookie)).toMatchObject({
      screen: "nda-pending",
      progress: { steps: { sent: { done: true } }, details: { correctable: true } },
    });
    const pdf = await callRoute(routes.pdf, { path: "/financing/nda.pdf", headers: { Cookie: user.cookie } });
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    const bytes = Buffer.from(await pdf.arrayBuffer());
    expect(createHash("sha256").update(bytes).digest("hex")).toBe(first.copy?.sha256);

    // A correction renders a new copy; the old one is superseded.
    const corrected = await post(user.cookie, {
      intent: "correct",
      fullName: "Ana María López Ruiz",
      address: "4 High Street",
    });
    expect(corrected.status).toBe(302);
    const second = await page(user.cookie);
    expect(second.copy?.sha256).not.toBe(first.copy?.sha256);
    const stale = await post(user.cookie, signForm(first.copy!.sha256, "Ana María López Ruiz"));
    expect(stale.status).toBe(409);
    expect(JSON.stringify(await stale.json())).toContain(ndaMessages.superseded(1));
    expect(await consents(user.id)).toEqual([]);

    expect((await post(user.cookie, signForm(second.copy!.sha256, "Ana María López Ruiz"))).status).toBe(302);
    // Signed: the details are fixed from now on.
    expect((await screen(user.cookie)).progress.details.correctable).toBe(false);
    const late = await post(user.cookie, { intent: "correct", fullName: "Someone Else", address: "5 High Street" });
    expect(late.status).toBe(409);
    expect(JSON.stringify(await late.json())).toContain(myDetailsContent.fixed);
    expect((await userRow(user.id))?.full_name).toBe("Ana María López Ruiz");
  });

  it("records the consent just before the signature, in the same post, and refuses a signature without its box", async () => {
    const user = await investor();
    const { copy, step } = await page(user.cookie);
    expect(step).toBe("consent-needed");
    const { agree: _unticked, ...withoutConsent } = signForm(copy!.sha256);

    const refused = await post(user.cookie, withoutConsent);
    expect(refused.status).toBe(400);
    const reply = JSON.stringify(await refused.json());
    expect(reply).toContain(ndaMessages.consentNotTicked);
    expect(reply).toContain('"agree"');
    expect(await consents(user.id)).toEqual([]);
    expect(await signatures(user.id)).toEqual([]);

    const signed = await post(user.cookie, signForm(copy!.sha256));
    expect(signed.status).toBe(302);
    expect(await consents(user.id)).toEqual([
      {
        id: expect.any(String),
        disclosure_version: NDA_DISCLOSURE_VERSION,
        disclosure_sha256: disclosureSha256(),
        withdrawn_at: null,
      },
    ]);
    const trail = await getDb()
      .selectFrom("audit_events")
      .select("action")
      .where("target_id", "=", user.id)
      .where("action", "in", ["nda.consent.given", "nda.signed"])
      .orderBy("id")
      .execute();
    expect(trail.map((row) => row.action)).toEqual(["nda.consent.given", "nda.signed"]);
  });

  it("signs with the password, refusing a wrong one, a name that does not match and an unticked box, storing no consent", async () => {
    const user = await investor();
    const { copy } = await page(user.cookie);
    const form = signForm(copy!.sha256);

    const wrongPassword = await post(user.cookie, { ...form, password: "wrong password here" });
    expect(wrongPassword.status).toBe(401);
    expect(JSON.stringify(await wrongPassword.json())).toContain(accountMessages.passwordWrong);
    const wrongName = await post(user.cookie, { ...form, typedName: "Ana Lopez" });
    expect(wrongName.status).toBe(400);
    expect(JSON.stringify(await wrongName.json())).toContain(ndaMessages.nameMismatch);
    const { signIntent: _unticked, ...withoutIntent } = form;
    const noIntent = await post(user.cookie, withoutIntent);
    expect(noIntent.status).toBe(400);
    expect(JSON.stringify(await noIntent.json())).toContain(ndaMessages.intentNeeded);
    expect(await signatures(user.id)).toEqual([]);
    expect(await consents(user.id)).toEqual([]);

    const signed = await post(user.cookie, form);
    expect(signed.status).toBe(302);
    expect(signed.headers.get("location")).toBe("/financing");
    expect(await signatures(user.id)).toEqual([{ id: expect.any(String), auth_method: "password" }]);
    expect((await page(user.cookie)).step).toBe("waiting-for-countersignature");
    const download = await callRoute(routes.pdf, { path: "/financing/nda.pdf", headers: { Cookie: user.cookie } });
    expect(await pdfsig(Buffer.from(await download.arrayBuffer()))).toContain("Signature is Valid.");
    expect(smtp.messages.filter((mail) => mail.to.includes(user.email))).toEqual([]);
  });

  it("asks for the second factor's code where the account has one", async () => {
    const user = await investor();
    const secret = await enrolTotp(user.id);
    const { copy, hasSecondFactor } = await page(user.cookie);
    expect(hasSecondFactor).toBe(true);
    const form = signForm(copy!.sha256, "Ana María López");
    expect((await post(user.cookie, form)).status).toBe(400);
    expect((await post(user.cookie, { ...form, code: "123456" })).status).toBe(401);
    expect(await signatures(user.id)).toEqual([]);
    expect(await consents(user.id)).toEqual([]);
    expect((await post(user.cookie, { ...form, code: totpCode(secret, Date.now()) })).status).toBe(302);
    expect(await signatures(user.id)).toEqual([{ id: expect.any(String), auth_method: "password+totp" }]);
  });

  it("needs no box where consent is in force already (given through the API)", async () => {
    const user = await investor();
    await giveConsent(signer(user), { agreed: true, ip: "127.0.0.1", userAgent: null });
    const { copy, step } = await page(user.cookie);
    expect(step).toBe("ready-to-sign");
    const { agree: _none, ...form } = signForm(copy!.sha256);
    expect((await post(user.cookie, form)).status).toBe(302);
    expect(await consents(user.id)).toHaveLength(1);
  });

  it("takes a withdrawal of consent from the account's security page: recorded, the firm mailed, once", async () => {
    const user = await investor();
    await giveConsent(signer(user), { agreed: true, ip: "127.0.0.1", userAgent: null });
    expect((await page(user.cookie)).step).toBe("ready-to-sign");
    const withdraw = () =>
      callRoute(routes.withdraw, {
        method: "POST",
        path: "/financing/security/nda-consent",
        headers: { Cookie: user.cookie, ...FORM },
        body: "",
      });
    expect((await withdraw()).status).toBe(302);
    await smtp.mailTo(firm.mailboxes.investors, `Consent to electronic records withdrawn: ${user.email}`);
    // Back to the page's words of an NDA not completed, the disclosure and its box asked again.
    expect(await page(user.cookie)).toMatchObject({ step: "consent-needed" });
    expect((await screen(user.cookie)).screen).toBe("nda-pending");
    const mails = smtp.messages.length;
    const again = await withdraw();
    expect(again.status).toBe(303);
    expect(smtp.messages.length).toBe(mails);
  });
});

describe("the one-sided setting", () => {
  afterAll(() => {
    process.env.NDA_ONE_SIDED = "off";
    resetEnvForTests();
  });

  it("leads the completing signature straight to the materials", async () => {
    process.env.NDA_ONE_SIDED = "on";
    resetEnvForTests();
    const user = await investor();
    const { copy } = await page(user.cookie);
    const signed = await post(user.cookie, signForm(copy!.sha256), "192.0.2.52");
    expect(signed.status).toBe(302);
    expect(signed.headers.get("location")).toBe("/financing/materials");
    expect(await userRow(user.id)).toMatchObject({ is_nda_sent: 1, is_nda_signed: 1 });
  });
});
