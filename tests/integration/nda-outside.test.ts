/**
 * An NDA signed outside the portal (issue 52, item 6): on the investor's page an administrator marks it
 * completed by hand with a reason and, optionally, the signed copy (a PDF by its bytes). It shows in the
 * NDA record with who and when, its file an audited download, and in words on the audit page; the investor
 * is then offered no signing. Bad input (no reason, too long a reason, a file that is not a PDF, an NDA
 * signed in the portal or completed already) is a 4xx that stores nothing and leaves the flags. Clearing
 * the flag, through the page, the table or the API (its contract unchanged), removes the record and its
 * file, and the investor may then sign in the portal. Real database, real SMTP catcher.
 */
import { createHash } from "node:crypto";
import { PDFDocument } from "pdf-lib";
import { REASON_MAX_LENGTH } from "~/content/investor-page";
import { ndaMessages } from "~/content/nda";
import { settleAccountMail } from "~/models/account/account-mail.server";
import { eventInWords } from "~/models/audit/audit-log.server";
import { ndaChanges } from "~/models/investors/nda-timeline.server";
import { giveConsent } from "~/models/nda/nda-consent.server";
import { copyToReview } from "~/models/nda/nda-copies.server";
import { investorNdaFile } from "~/models/nda/nda-document.server";
import { ndaRecord } from "~/models/nda/nda-record.server";
import { signNda } from "~/models/nda/nda-signing.server";
import { investorNda } from "~/models/nda/nda-state.server";
import { addNdaTemplate } from "~/models/nda/nda-templates.server";
import * as signedRoute from "~/routes/api.user.update_nda_signed";
import * as investorRoute from "~/routes/financing.investors.$id";
import * as fileRoute from "~/routes/financing.investors.$id_.nda.$file[.]pdf";
import { getDb } from "~/server/db.server";
import { callRoute, type RouteModule } from "../support/api-routes";
import { accessTokenFor, createSession, userRow } from "../support/factories";
import { useIntegration } from "../support/integration";
import { countRows } from "../support/library-rows";

const fixture = useIntegration({ mail: true });
const { smtp } = fixture;
let admin: { id: string; email: string };
let cookie: string;

beforeAll(async () => {
  const row = await fixture.administrator({ email: "outside-admin@firm.test" });
  admin = { id: row.id, email: row.email };
  cookie = (await createSession(admin.id)).cookie;
  const template = await PDFDocument.create();
  template.addPage();
  const added = await addNdaTemplate({ bytes: await template.save(), fileName: "nda.pdf" }, admin);
  if (!added.ok) throw new Error(added.message);
});

async function signedCopy() {
  const pdf = await PDFDocument.create();
  pdf.addPage();
  pdf.setTitle("Signed on paper, scanned");
  return Buffer.from(await pdf.save());
}

/** The investor page's hand-completion form, posted as a browser posts it (multipart, a file part even when empty). */
function markOutside(id: string, fields: { reason?: string; file?: { bytes: Uint8Array; name: string } }) {
  const body = new FormData();
  body.append("intent", "nda-outside");
  body.append("returnTo", `/financing/investors/${id}`);
  if (fields.reason !== undefined) body.append("reason", fields.reason);
  const file = fields.file ?? { bytes: new Uint8Array(), name: "" };
  body.append("file", new Blob([new Uint8Array(file.bytes)], { type: "application/octet-stream" }), file.name);
  const request = new Request(`http://localhost:3000/financing/investors/${id}`, {
    method: "POST",
    body,
    headers: { Cookie: cookie },
  });
  return investorRoute.action({ request, params: { id }, context: { clientIp: "192.0.2.60", cspNonce: "" } } as never);
}

function postFlag(id: string, fields: Record<string, string>) {
  return callRoute(investorRoute as unknown as RouteModule, {
    method: "POST",
    ip: "192.0.2.61",
    path: `/financing/investors/${id}`,
    params: { id },
    headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  });
}

async function adminFile(id: string, file: string) {
  const request = new Request(`http://localhost:3000/financing/investors/${id}/nda/${file}.pdf`, {
    headers: { Cookie: cookie },
  });
  try {
    return await fileRoute.loader({ request, params: { id, file }, context: { clientIp: "192.0.2.62" } } as never);
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

/** What a refusal must leave as it was: the flags, the NDA rows, the blobs, the mail. */
async function stateOf(id: string) {
  const user = await userRow(id);
  return {
    sent: user?.is_nda_sent,
    signed: user?.is_nda_signed,
    blobs: await countRows("blobs"),
    signatures: await countRows("nda_signatures"),
    mails: smtp.messages.length,
  };
}

const auditOf = (action: string, targetId: string) =>
  getDb()
    .selectFrom("audit_events")
    .select(["action", "actor_email", "details", "target_email"])
    .where("action", "=", action)
    .where("target_id", "=", targetId)
    .execute();

/** The investor consents and signs the copy offered, in the portal. */
async function signInPortal(investor: { id: string; email: string; full_name: string }) {
  const user = { id: investor.id, email: investor.email, fullName: investor.full_name };
  await giveConsent(user, { agreed: true, ip: "192.0.2.64", userAgent: null });
  const offered = await copyToReview(investor.id, null);
  if (!offered.ok) throw new Error(offered.message);
  return signNda(user, {
    typedName: investor.full_name,
    copySha256: offered.copy.sha256,
    intent: true,
    authMethod: "password",
    ip: "192.0.2.66",
    userAgent: null,
  });
}

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

describe("marking the NDA completed by hand, signed outside the portal", () => {
  it("refuses no reason, too long a reason and a file that is not a PDF, storing nothing", async () => {
    const investor = await fixture.investor("named");
    await settleAccountMail();
    const before = await stateOf(investor.id);
    const cases = [
      { fields: {}, status: 400, message: ndaMessages.outsideReasonRequired },
      { fields: { reason: "   " }, status: 400, message: ndaMessages.outsideReasonRequired },
      {
        fields: { reason: "x".repeat(REASON_MAX_LENGTH + 1) },
        status: 400,
        message: ndaMessages.outsideReasonTooLong(REASON_MAX_LENGTH),
      },
      // Named like a PDF, but not one by its bytes.
      {
        fields: {
          reason: "Signed on paper",
          file: { bytes: new TextEncoder().encode("hello, world"), name: "nda.pdf" },
        },
        status: 415,
        message: ndaMessages.outsideNotPdf,
      },
    ];
    for (const { fields, status, message } of cases) {
      const answer = await markOutside(investor.id, fields);
      expect(answer.status).toBe(status);
      const body = (await answer.json()) as {
        intent: string;
        message: string;
        result: { error: Record<string, string[]> };
      };
      expect(body.intent).toBe("nda-outside");
      expect([body.message, ...Object.values(body.result.error).flat()]).toContain(message);
    }
    await settleAccountMail();
    expect(await stateOf(investor.id)).toEqual(before);
    expect(await auditOf("nda.recorded_outside", investor.id)).toEqual([]);
  });

  it("records it with the reason and the signed copy: the record, an audited download, the audit page's words", async () => {
    const investor = await fixture.investor("named");
    const copy = await signedCopy();
    const answer = await markOutside(investor.id, {
      reason: "Signed on paper at the roadshow",
      file: { bytes: copy, name: "scan.pdf" },
    });
    expect(answer.status).toBe(302);
    expect(await userRow(investor.id)).toMatchObject({ is_nda_sent: 1, is_nda_signed: 1 });
    await smtp.mailTo(investor.email, /materials/i);

    const record = await ndaRecord(investor.id);
    expect(record.signature).toMatchObject({
      kind: "outside",
      reason: "Signed on paper at the roadshow",
      sha256: sha256(copy),
    });
    expect(record.files).toMatchObject({ outside: true, signed: false, completed: false });
    expect(record.steps.find((step) => step.action === "nda.recorded_outside")).toMatchObject({ by: admin.email });

    const [row] = await auditOf("nda.recorded_outside", investor.id);
    expect(row.actor_email).toBe(admin.email);
    // The NDA's steps on the investor's page read it as both flags set, by the administrator.
    const steps = await ndaChanges(investor.id);
    for (const flag of [steps.sent, steps.signed]) {
      expect(flag).toEqual([expect.objectContaining({ change: "done", actorEmail: admin.email })]);
    }
    const details = JSON.parse(row.details!) as Record<string, unknown>;
    expect(details).toMatchObject({
      reason: "Signed on paper at the roadshow",
      file: "scan.pdf",
      sha256: sha256(copy),
    });
    expect(eventInWords("nda.recorded_outside", { target: investor.email, details })).toBe(
      `Marked the NDA of ${investor.email} completed by hand, signed outside the portal, with the signed copy ` +
        `(SHA-256 ${sha256(copy)}): "Signed on paper at the roadshow"`,
    );

    const file = await adminFile(investor.id, "signed");
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer()).equals(copy)).toBe(true);
    expect(await auditOf("nda.downloaded", investor.id)).toEqual([
      expect.objectContaining({ actor_email: admin.email }),
    ]);
    expect((await adminFile(investor.id, "completed")).status).toBe(404);

    // The investor is offered no signing: their status says signed outside, and a signature is refused.
    const user = { id: investor.id, email: investor.email, fullName: investor.full_name };
    expect((await investorNda({ id: investor.id, isNDASigned: true }, null)).step).toBe("signed-outside");
    await giveConsent(user, { agreed: true, ip: "192.0.2.63", userAgent: null });
    expect(await copyToReview(investor.id, null)).toMatchObject({ ok: false, status: 409 });
    const refused = await signNda(user, {
      typedName: investor.full_name,
      copySha256: "0".repeat(64),
      intent: true,
      authMethod: "password",
      ip: "192.0.2.66",
      userAgent: null,
    });
    expect(refused).toMatchObject({ ok: false, status: 409, message: ndaMessages.alreadySigned });
    // What the investor downloads from their account is the copy attached, audited as theirs.
    expect((await investorNdaFile(user, null))?.sha256).toBe(sha256(copy));
  });

  it("takes the reason alone, without a file", async () => {
    const investor = await fixture.investor("named");
    expect((await markOutside(investor.id, { reason: "Signed through the placement agent" })).status).toBe(302);
    const record = await ndaRecord(investor.id);
    expect(record.signature).toMatchObject({
      kind: "outside",
      reason: "Signed through the placement agent",
      sha256: null,
    });
    expect(record.files.outside).toBe(false);
    expect((await adminFile(investor.id, "signed")).status).toBe(404);
    const [row] = await auditOf("nda.recorded_outside", investor.id);
    expect(
      eventInWords("nda.recorded_outside", { target: investor.email, details: JSON.parse(row.details!) }),
    ).toContain("no copy attached");
  });

  it("refuses an NDA signed in the portal, one completed already, and an investor not ready, changing nothing", async () => {
    const portal = await fixture.investor("named");
    expect((await signInPortal(portal)).ok).toBe(true);
    const completed = await fixture.investor("nda-signed");
    const unverified = await fixture.investor("registered", { fullName: "Una Verified", address: "3 Side Street" });
    for (const [investor, status, message] of [
      [portal, 409, ndaMessages.outsideSignedInPortal],
      [completed, 409, ndaMessages.outsideCompletedAlready],
      [unverified, 409, /verified their e-mail/],
    ] as const) {
      await settleAccountMail();
      const before = await stateOf(investor.id);
      const answer = await markOutside(investor.id, {
        reason: "On paper",
        file: { bytes: await signedCopy(), name: "a.pdf" },
      });
      expect(answer.status).toBe(status);
      expect(((await answer.json()) as { message: string }).message).toMatch(message);
      await settleAccountMail();
      expect(await stateOf(investor.id)).toEqual(before);
    }
  });
});

describe("clearing the flag again", () => {
  it("through the API (its answer unchanged) removes the record and its file; the investor may then sign in the portal", async () => {
    const investor = await fixture.investor("named");
    const copy = await signedCopy();
    const blobsBefore = (await stateOf(investor.id)).blobs;
    expect(
      (await markOutside(investor.id, { reason: "Signed by post", file: { bytes: copy, name: "post.pdf" } })).status,
    ).toBe(302);
    expect((await stateOf(investor.id)).blobs).toBe(blobsBefore + 1);

    const cleared = await callRoute(signedRoute as unknown as RouteModule, {
      method: "POST",
      path: "/api/user/update_nda_signed",
      headers: { Authorization: `Bearer ${await accessTokenFor(admin.id)}` },
      json: { email: investor.email, state: false },
    });
    expect(cleared.status).toBe(201);
    expect(await cleared.json()).toMatchObject({
      message: "NDA Sign state changed",
      user: { email: investor.email, isNDASent: true, isNDASigned: false },
    });
    expect(
      await getDb().selectFrom("nda_signatures").select("id").where("user_id", "=", investor.id).execute(),
    ).toEqual([]);
    expect((await stateOf(investor.id)).blobs).toBe(blobsBefore);
    const [removed] = await auditOf("nda.outside_removed", investor.id);
    expect(JSON.parse(removed.details!)).toMatchObject({ reason: "Signed by post", sha256: sha256(copy) });
    expect((await ndaRecord(investor.id)).signature).toBeNull();

    expect((await signInPortal(investor)).ok).toBe(true);
  });

  it("through the page's or the table's flag forms, sent or completed, removes it too", async () => {
    for (const intent of ["nda-signed", "nda-sent"] as const) {
      const investor = await fixture.investor("named");
      expect((await markOutside(investor.id, { reason: `Undone by ${intent}` })).status).toBe(302);
      const answer = await postFlag(investor.id, { intent, state: "no", returnTo: "/financing" });
      expect(answer.status).toBe(302);
      expect(await userRow(investor.id)).toMatchObject({ is_nda_signed: 0 });
      expect(
        await getDb().selectFrom("nda_signatures").select("id").where("user_id", "=", investor.id).execute(),
      ).toEqual([]);
      expect(await auditOf("nda.outside_removed", investor.id)).toHaveLength(1);
    }
  });
});
