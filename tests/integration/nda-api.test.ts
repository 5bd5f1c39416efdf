/**
 * The NDA's API calls (issue 52, item 8) on a real database and SMTP catcher, every answer held to the
 * OpenAPI document: GET /api/nda offers the copy, consent, sign (with a code where the account has a
 * second factor), the PDF, and the administrators' countersign and record. Bad input gets a clear 4xx.
 */
import { createHash } from "node:crypto";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { ndaMessages } from "~/content/nda";
import { addNdaTemplate } from "~/models/nda/nda-templates.server";
import { openApiDocument } from "~/openapi/openapi.server";
import * as ndaRoute from "~/routes/api.nda";
import * as consentRoute from "~/routes/api.nda.consent";
import * as countersignRoute from "~/routes/api.nda.countersign";
import * as documentRoute from "~/routes/api.nda.document";
import * as recordRoute from "~/routes/api.nda.record";
import * as signRoute from "~/routes/api.nda.sign";
import { getDb } from "~/server/db.server";
import { contractChecker, type OpenApi } from "../support/api-contract";
import { callRoute, routeModules, type RouteCall } from "../support/api-routes";
import { bearerHeaders, enrolTotp, userRow } from "../support/factories";
import { useIntegration } from "../support/integration";
import { pdfsig } from "../support/pdfsig";
import { totpCode } from "../support/totp";

const routes = routeModules({
  nda: ndaRoute,
  consent: consentRoute,
  sign: signRoute,
  document: documentRoute,
  countersign: countersignRoute,
  record: recordRoute,
});
const checker = contractChecker(openApiDocument() as unknown as OpenApi);

const fixture = useIntegration({ mail: true });
const { smtp } = fixture;
let admin: { id: string; email: string };

beforeAll(async () => {
  const row = await fixture.administrator({ email: "admin@firm.test", fullName: "Ada Admin" });
  admin = { id: row.id, email: row.email };
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  pdf.addPage().drawText("Clause 1", { x: 72, y: 700, font, size: 12 });
  await addNdaTemplate({ bytes: await pdf.save(), fileName: "nda.pdf" }, admin);
});

/** An answer's JSON, read after it was held to the document. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- its shape is the contract's, checked in `call`
type AnswerBody = Record<string, any>;

/** Calls the route and holds a JSON answer to the document. */
async function call(route: keyof typeof routes, request: RouteCall) {
  const response = await callRoute(routes[route], request);
  const body = await response.clone().text();
  if ((response.headers.get("content-type") ?? "").includes("json")) {
    const headers = Object.fromEntries(response.headers.entries());
    expect(
      checker.problemsOf(request.method ?? (request.json ? "POST" : "GET"), request.path, {
        status: response.status,
        headers,
        body,
      }),
    ).toEqual([]);
  }
  return {
    response,
    status: response.status,
    json: () => JSON.parse(body) as AnswerBody,
  };
}

/** A named investor (not yet sent the NDA) with an API token. */
async function investor() {
  const row = await fixture.investor("named", { fullName: "José Núñez", address: "2 Side Road" });
  return { id: row.id, email: row.email, headers: await bearerHeaders(row.id) };
}

describe("the investor's calls", () => {
  it("walk from the copy offered to the signature, refusing each bad input", async () => {
    const user = await investor();
    const state = await call("nda", { path: "/api/nda", headers: user.headers });
    expect(state.status).toBe(200);
    const { copy, step } = state.json();
    expect(step).toBe("consent-needed");
    expect((await userRow(user.id))?.is_nda_sent).toBe(1);

    const document = await call("document", { path: "/api/nda/document", headers: user.headers });
    expect(document.response.headers.get("content-type")).toBe("application/pdf");
    const bytes = Buffer.from(await document.response.arrayBuffer());
    expect(createHash("sha256").update(bytes).digest("hex")).toBe(copy.sha256);

    const sign = (json: Record<string, unknown>) =>
      call("sign", {
        path: "/api/nda/sign",
        headers: user.headers,
        json: { typedName: "jose nunez", copySha256: copy.sha256, intent: true, ...json },
      });
    expect((await sign({})).json()).toEqual({ message: ndaMessages.consentNeeded });
    expect(
      (await call("consent", { path: "/api/nda/consent", headers: user.headers, json: { agree: false } })).status,
    ).toBe(400);
    const consented = await call("consent", { path: "/api/nda/consent", headers: user.headers, json: { agree: true } });
    expect(consented.status).toBe(201);
    expect(consented.json().step).toBe("ready-to-sign");

    const wrongName = await sign({ typedName: "Jose Nunes" });
    expect([wrongName.status, wrongName.json().message]).toEqual([400, ndaMessages.nameMismatch]);
    const badHash = await sign({ copySha256: "nothex" });
    expect(badHash.status).toBe(400);
    const otherHash = await sign({ copySha256: "a".repeat(64) });
    expect([otherHash.status, otherHash.json().message]).toEqual([400, ndaMessages.hashMismatch]);
    expect((await sign({ intent: false })).status).toBe(400);
    expect(await getDb().selectFrom("nda_signatures").select("id").where("user_id", "=", user.id).execute()).toEqual(
      [],
    );

    const signed = await sign({});
    expect(signed.status).toBe(201);
    expect(signed.json()).toMatchObject({ completed: false });
    expect((await sign({})).status).toBe(409);

    const after = await call("nda", { path: "/api/nda", headers: user.headers });
    expect(after.json()).toMatchObject({
      step: "waiting-for-countersignature",
      signature: { sha256: signed.json().sha256 },
    });
    const download = await call("document", { path: "/api/nda/document", headers: user.headers });
    const signedBytes = Buffer.from(await download.response.arrayBuffer());
    expect(createHash("sha256").update(signedBytes).digest("hex")).toBe(signed.json().sha256);
    expect(await pdfsig(signedBytes)).toContain("Signature is Valid.");
  });

  it("asks for the code where the account has a second factor, and refuses a wrong one", async () => {
    const user = await investor();
    const secret = await enrolTotp(user.id);
    const { copy } = (await call("nda", { path: "/api/nda", headers: user.headers })).json();
    await call("consent", { path: "/api/nda/consent", headers: user.headers, json: { agree: true } });
    const body = { typedName: "José Núñez", copySha256: copy.sha256, intent: true };
    expect((await call("sign", { path: "/api/nda/sign", headers: user.headers, json: body })).status).toBe(400);
    expect(
      (await call("sign", { path: "/api/nda/sign", headers: user.headers, json: { ...body, code: "000000" } })).status,
    ).toBe(401);
    const signed = await call("sign", {
      path: "/api/nda/sign",
      headers: user.headers,
      json: { ...body, code: totpCode(secret, Date.now()) },
    });
    expect(signed.status).toBe(201);
    const row = await getDb()
      .selectFrom("nda_signatures")
      .select("auth_method")
      .where("user_id", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(row.auth_method).toBe("api-token+totp");
  });
});

describe("the administrators' calls", () => {
  it("refuse an investor's token, and an NDA not signed; countersign a signed one; read the record", async () => {
    const user = await investor();
    const adminHeaders = await bearerHeaders(admin.id);
    const byInvestor = await call("countersign", {
      path: "/api/nda/countersign",
      headers: user.headers,
      json: { investorId: user.id },
    });
    expect(byInvestor.status).toBe(403);
    const notSigned = await call("countersign", {
      path: "/api/nda/countersign",
      headers: adminHeaders,
      json: { investorId: user.id },
    });
    expect([notSigned.status, notSigned.json().message]).toEqual([409, ndaMessages.notSigned]);

    const { copy } = (await call("nda", { path: "/api/nda", headers: user.headers })).json();
    await call("consent", { path: "/api/nda/consent", headers: user.headers, json: { agree: true } });
    await call("sign", {
      path: "/api/nda/sign",
      headers: user.headers,
      json: { typedName: "José Núñez", copySha256: copy.sha256, intent: true },
    });
    const done = await call("countersign", {
      path: "/api/nda/countersign",
      headers: adminHeaders,
      json: { investorId: user.id },
    });
    expect(done.status).toBe(201);
    expect(await userRow(user.id)).toMatchObject({ is_nda_sent: 1, is_nda_signed: 1 });
    await smtp.mailTo(user.email, "Your signed non-disclosure agreement");

    const record = await call("record", { path: `/api/nda/record?investorId=${user.id}`, headers: adminHeaders });
    expect(record.status).toBe(200);
    expect(record.json()).toMatchObject({
      templateVersion: 1,
      evidence: { typedName: "José Núñez", copySha256: copy.sha256, authMethod: "api-token" },
      signature: { completedSha256: done.json().sha256 },
      files: { copy: true, signed: true, completed: true, outside: false },
    });
    expect(record.json().steps.map((step: { action: string }) => step.action)).toEqual(
      expect.arrayContaining(["nda.offered", "nda.consent.given", "nda.signed", "nda.countersigned", "nda.completed"]),
    );
    expect((await call("record", { path: "/api/nda/record?investorId=nobody", headers: adminHeaders })).status).toBe(
      404,
    );
  });
});
