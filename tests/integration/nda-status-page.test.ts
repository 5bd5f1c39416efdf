/**
 * The status page's NDA forms (issue 52, item 3) as a browser without JavaScript sends them: consent, the
 * copy shown at /financing/nda.pdf, and the signature with "Confirm it's you" (the password, and a code
 * where the account has a factor). Each refusal is a 4xx naming what to fix, with nothing stored.
 */
import { createHash } from "node:crypto";
import { PDFDocument } from "pdf-lib";
import { accountMessages } from "~/content/account-messages";
import { firm } from "~/content/firm";
import { ndaMessages } from "~/content/nda";
import { addNdaTemplate } from "~/models/nda/nda-templates.server";
import * as indexRoute from "~/routes/financing._index";
import * as pdfRoute from "~/routes/financing.nda[.]pdf";
import * as withdrawRoute from "~/routes/financing.security_.nda-consent";
import { getDb } from "~/server/db.server";
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

const post = (cookie: string, fields: Record<string, string>) =>
  callRoute(routes.index, {
    method: "POST",
    path: "/financing?index",
    headers: { Cookie: cookie, ...FORM },
    body: new URLSearchParams(fields).toString(),
  });

const signatures = (userId: string) =>
  getDb().selectFrom("nda_signatures").select(["id", "auth_method"]).where("user_id", "=", userId).execute();

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
  it("asks for consent before offering the copy, so the details stay correctable until then", async () => {
    const user = await investor();
    expect(await page(user.cookie)).toMatchObject({ step: "consent-needed", copy: null });
    expect((await userRow(user.id))?.is_nda_sent).toBe(0);
    const unticked = await post(user.cookie, { intent: "nda-consent" });
    expect(unticked.status).toBe(400);
    expect(JSON.stringify(await unticked.json())).toContain(ndaMessages.consentNotTicked);
    expect((await userRow(user.id))?.is_nda_sent).toBe(0);

    const agreed = await post(user.cookie, { intent: "nda-consent", agree: "on" });
    expect(agreed.status).toBe(302);
    // Agreeing offers the copy: the page it leads to shows the NDA sent and the details fixed.
    expect((await userRow(user.id))?.is_nda_sent).toBe(1);
    const after = (await (
      await callRoute(routes.index, { path: "/financing?index", headers: { Cookie: user.cookie } })
    ).json()) as {
      screen: string;
      progress: { steps: { sent: { done: boolean } }; details: { correctable: boolean } };
    };
    expect(after).toMatchObject({
      screen: "nda-pending",
      progress: { steps: { sent: { done: true } }, details: { correctable: false } },
    });
    const section = await page(user.cookie);
    expect(section).toMatchObject({ step: "ready-to-sign", copy: { templateVersion: 1 } });

    const pdf = await callRoute(routes.pdf, { path: "/financing/nda.pdf", headers: { Cookie: user.cookie } });
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    const bytes = Buffer.from(await pdf.arrayBuffer());
    expect(createHash("sha256").update(bytes).digest("hex")).toBe(section.copy?.sha256);
  });

  it("signs with the password, refusing a wrong one, a name that does not match and an unticked box", async () => {
    const user = await investor();
    await post(user.cookie, { intent: "nda-consent", agree: "on" });
    const { copy } = await page(user.cookie);
    const form = {
      intent: "nda-sign",
      copySha256: copy!.sha256,
      typedName: "ana maria  LOPEZ",
      signIntent: "on",
      password: PASSWORD,
    };

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

    const signed = await post(user.cookie, form);
    expect(signed.status).toBe(302);
    expect(await signatures(user.id)).toEqual([{ id: expect.any(String), auth_method: "password" }]);
    expect((await page(user.cookie)).step).toBe("waiting-for-countersignature");
    const download = await callRoute(routes.pdf, { path: "/financing/nda.pdf", headers: { Cookie: user.cookie } });
    expect(await pdfsig(Buffer.from(await download.arrayBuffer()))).toContain("Signature is Valid.");
    expect(smtp.messages.filter((mail) => mail.to.includes(user.email))).toEqual([]);
  });

  it("asks for the second factor's code where the account has one", async () => {
    const user = await investor();
    const secret = await enrolTotp(user.id);
    await post(user.cookie, { intent: "nda-consent", agree: "on" });
    const { copy, hasSecondFactor } = await page(user.cookie);
    expect(hasSecondFactor).toBe(true);
    const form = {
      intent: "nda-sign",
      copySha256: copy!.sha256,
      typedName: "Ana María López",
      signIntent: "on",
      password: PASSWORD,
    };
    expect((await post(user.cookie, form)).status).toBe(400);
    expect((await post(user.cookie, { ...form, code: "123456" })).status).toBe(401);
    expect(await signatures(user.id)).toEqual([]);
    expect((await post(user.cookie, { ...form, code: totpCode(secret, Date.now()) })).status).toBe(302);
    expect(await signatures(user.id)).toEqual([{ id: expect.any(String), auth_method: "password+totp" }]);
  });

  it("takes a withdrawal of consent from the account's security page: recorded, the firm mailed, once", async () => {
    const user = await investor();
    await post(user.cookie, { intent: "nda-consent", agree: "on" });
    const withdraw = () =>
      callRoute(routes.withdraw, {
        method: "POST",
        path: "/financing/security/nda-consent",
        headers: { Cookie: user.cookie, ...FORM },
        body: "",
      });
    expect((await withdraw()).status).toBe(302);
    await smtp.mailTo(firm.mailboxes.investors, `Consent to electronic records withdrawn: ${user.email}`);
    expect((await page(user.cookie)).step).toBe("consent-needed");
    const mails = smtp.messages.length;
    const again = await withdraw();
    expect(again.status).toBe(303);
    expect(smtp.messages.length).toBe(mails);
  });
});
