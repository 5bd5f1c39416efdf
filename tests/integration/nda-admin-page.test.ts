/**
 * The administrators' NDA page (issue 52, items 1, 4 and 5): the template's upload (not a PDF, or one that
 * will not render: a 4xx and nothing kept), who waits for the countersignature, the countersignature
 * behind "Confirm it's you" (and the investor table's filter of who waits), and the verification of an uploaded file. Real database, real SMTP catcher.
 */
import { PDFDocument } from "pdf-lib";
import { ndaMessages } from "~/content/nda";
import { sudoContent } from "~/content/sudo";
import { loadInvestorTable } from "~/models/investors/investor-table.server";
import { giveConsent } from "~/models/nda/nda-consent.server";
import { copyToReview } from "~/models/nda/nda-copies.server";
import { signNda } from "~/models/nda/nda-signing.server";
import * as indexRoute from "~/routes/financing._index";
import * as investorRoute from "~/routes/financing.investors.$id";
import * as fileRoute from "~/routes/financing.investors.$id_.nda.$file[.]pdf";
import * as pageRoute from "~/routes/financing.nda";
import { readWholeBlob } from "~/server/blob-store.server";
import { getDb } from "~/server/db.server";
import { createSession, userRow } from "../support/factories";
import { useIntegration } from "../support/integration";

const { smtp, investor: newInvestor, administrator } = useIntegration({ mail: true });
let confirmed: string;
let unconfirmed: string;

beforeAll(async () => {
  const admin = await administrator({ email: "admin@firm.test" });
  confirmed = (await createSession(admin.id)).cookie;
  unconfirmed = (await createSession(admin.id, { reauthenticated: false })).cookie;
});

async function post(cookie: string, fields: Record<string, string | Blob>) {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value === "string") body.append(name, value);
    else body.append(name, value, "file.pdf");
  }
  const request = new Request("http://localhost:3000/financing/nda", {
    method: "POST",
    body,
    headers: { Cookie: cookie },
  });
  return pageRoute.action({ request, params: {}, context: { clientIp: "192.0.2.30", cspNonce: "" } } as never);
}

/** The investor table filtered to those waiting for the countersignature: its rows' e-mails, and its total must agree. */
async function waitingInTable() {
  const table = await loadInvestorTable(new URL("http://localhost/financing?nda=countersign"));
  expect(table.total).toBe(table.rows.length);
  return table.rows.map((row) => row.email);
}

const adminRequest = (path: string, cookie: string, params: Record<string, string> = {}) =>
  ({
    request: new Request(`http://localhost:3000${path}`, { headers: { Cookie: cookie } }),
    params,
    context: { clientIp: "192.0.2.30", cspNonce: "" },
  }) as never;

const pdfBlob = (bytes: Uint8Array) => new Blob([new Uint8Array(bytes)], { type: "application/pdf" });
const templates = () => getDb().selectFrom("nda_templates").select("id").execute();

describe("the NDA page", () => {
  it("refuses a template that is not a PDF or will not render, and keeps one that does", async () => {
    const notPdf = await post(confirmed, { intent: "upload", file: new Blob(["hello"], { type: "text/plain" }) });
    expect(notPdf.status).toBe(415);
    expect(await notPdf.json()).toMatchObject({ message: ndaMessages.templateNotPdf });
    const broken = await post(confirmed, { intent: "upload", file: new Blob(["%PDF-1.7 nothing"]) });
    expect(broken.status).toBe(400);
    expect(await templates()).toEqual([]);
    const pdf = await PDFDocument.create();
    pdf.addPage();
    const kept = await post(confirmed, { intent: "upload", file: pdfBlob(await pdf.save()) });
    expect(kept.status).toBe(302);
    expect(await templates()).toHaveLength(1);
  });

  it("lists who waits, countersigns only after 'Confirm it's you', and verifies the result", async () => {
    const investor = await newInvestor("named", {
      email: "waiting@example.com",
      fullName: "Wai Ting",
      address: "4 Low Road",
    });
    const signer = { id: investor.id, email: investor.email, fullName: investor.full_name };
    await giveConsent(signer, { agreed: true, ip: "192.0.2.31", userAgent: null });
    const copy = await copyToReview(investor.id, null);
    if (!copy.ok) throw new Error(copy.message);
    await signNda(signer, {
      typedName: "wai ting",
      copySha256: copy.copy.sha256,
      intent: true,
      authMethod: "password",
      ip: "192.0.2.31",
      userAgent: null,
    });

    const request = new Request("http://localhost:3000/financing/nda", { headers: { Cookie: confirmed } });
    const page = await (await pageRoute.loader({ request, params: {}, context: {} } as never)).json();
    expect(page.waiting).toEqual([{ userId: investor.id, email: investor.email, signedAt: expect.any(String) }]);
    // The table's filter finds the one who signed, not one merely sent the NDA; the investors page links it.
    const offered = await newInvestor("verified", { email: "offered@example.com" });
    await getDb().updateTable("users").set({ is_nda_sent: 1 }).where("id", "=", offered.id).execute();
    expect(await waitingInTable()).toEqual([investor.email]);
    const investorsPage = await (await indexRoute.loader(adminRequest("/financing", confirmed))).json();
    expect(investorsPage).toMatchObject({ screen: "administrator", ndaWaiting: 1 });

    const fields = { intent: "countersign", investorId: investor.id, investorEmail: investor.email };
    const notConfirmed = await post(unconfirmed, fields);
    expect(notConfirmed.status).toBe(403);
    expect(await notConfirmed.json()).toMatchObject({ message: sudoContent.needed });
    expect((await userRow(investor.id))?.is_nda_signed).toBe(0);

    expect((await post(confirmed, fields)).status).toBe(302);
    expect((await userRow(investor.id))?.is_nda_signed).toBe(1);
    expect(await waitingInTable()).toEqual([]);
    await smtp.mailTo(investor.email, "Your signed non-disclosure agreement");
    expect((await post(confirmed, fields)).status).toBe(409);

    const row = await getDb()
      .selectFrom("nda_signatures")
      .select(["completed_blob_id", "completed_sha256", "signed_sha256"])
      .where("user_id", "=", investor.id)
      .executeTakeFirstOrThrow();

    // The investor's page shows the record, and its links give the files.
    const investorPage = await (
      await investorRoute.loader(adminRequest(`/financing/investors/${investor.id}`, confirmed, { id: investor.id }))
    ).json();
    expect(investorPage.nda).toMatchObject({
      templateVersion: 1,
      evidence: { typedName: "wai ting", email: investor.email, ip: "192.0.2.31", authMethod: "password" },
      signature: { kind: "portal", sha256: row.signed_sha256, completedSha256: row.completed_sha256 },
      files: { signed: true, completed: true, outside: false },
    });
    const actions = investorPage.nda.steps.map((step: { action: string }) => step.action);
    expect(actions).toEqual(expect.arrayContaining(["nda.consent.given", "nda.signed", "nda.countersigned"]));
    const completedFile = await fileRoute.loader(
      adminRequest(`/financing/investors/${investor.id}/nda/completed.pdf`, confirmed, {
        id: investor.id,
        file: "completed",
      }),
    );
    expect(completedFile.headers.get("ETag")).toBe(`"${row.completed_sha256}"`);
    const unknownFile = await fileRoute
      .loader(adminRequest("/x", confirmed, { id: investor.id, file: "other" }))
      .catch((answer: Response) => answer);
    expect(unknownFile.status).toBe(404);
    const verified = await post(confirmed, {
      intent: "verify",
      file: pdfBlob(await readWholeBlob(row.completed_blob_id!)),
    });
    expect(await verified.json()).toMatchObject({
      verification: { match: { email: investor.email, kind: "completed" }, seal: "valid" },
    });
    const notPdf = await post(confirmed, { intent: "verify", file: new Blob(["text"]) });
    expect(notPdf.status).toBe(415);
    expect(await notPdf.json()).toMatchObject({ message: ndaMessages.verifyNotPdf });
  });
});
