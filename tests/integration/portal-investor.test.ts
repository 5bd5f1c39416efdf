/**
 * The investor's side: the screen decision, set_name_address (success shape,
 * 401, IDOR, mass assignment, bad input, the firm's e-mail) and the protected
 * files (Range, 416, refusals, audit rows), against a real SQLite file and a
 * real SMTP catcher.
 */
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { PDFDict, PDFDocument, PDFName, PDFString } from "pdf-lib";
import { nameAddressMessages } from "~/content/portal";
import { parseRange, VIDEO_VIEWING_WINDOW_MS } from "~/http/private-file.server";
import { toPublicUser } from "~/models/account/user.server";
import { listAuditEvents } from "~/models/audit/audit.server";
import { investorScreen } from "~/models/investors/investor-profile.server";
import { addressToStore, nameAddressFormSchema } from "~/models/investors/name-address-schema.server";
import * as setNameRoute from "~/routes/api.user.set_name_address";
import * as pageRoute from "~/routes/financing._index";
import * as materialsRoute from "~/routes/financing.materials";
import * as pdfRoute from "~/routes/pdfs.download[.]pdf";
import * as videoRoute from "~/routes/video.investorvideo[.]mp4";
import { testClock } from "~/server/clock.server";
import { callRoute, routeModules } from "../support/api-routes";
import { bearerHeaders, createUser, sessionHeaders, userRow } from "../support/factories";
import { useIntegration } from "../support/integration";
import { pdfPageTexts } from "../support/pdf-text";

const routes = routeModules({
  setName: setNameRoute,
  pdf: pdfRoute,
  video: videoRoute,
  page: pageRoute,
  materials: materialsRoute,
});
const VIDEO_BYTES = fs.readFileSync(path.resolve("private/investorvideo.mp4"));
const PDF_BYTES = fs.readFileSync(path.resolve("private/download.pdf"));
const FIRM_MAILBOX = "firm-mailbox@example.com";

const { smtp } = useIntegration({ mail: true, env: { CONTACT_EMAIL: FIRM_MAILBOX } });

describe("the screen /financing shows", () => {
  it("follows the investor's states: form, thank you, NDA pending, materials, administrator", async () => {
    const screenOf = async (fields: Parameters<typeof createUser>[0]) =>
      investorScreen(toPublicUser(await createUser(fields)));
    expect(await screenOf({})).toBe("name-address");
    expect(await screenOf({ fullName: "Jane Roe" })).toBe("name-address");
    expect(await screenOf({ fullName: "Jane Roe", address: "1 Main St" })).toBe("thank-you");
    expect(await screenOf({ fullName: "Jane Roe", address: "1 Main St", sent: true })).toBe("nda-pending");
    expect(await screenOf({ fullName: "Jane Roe", address: "1 Main St", signed: true })).toBe("materials");
    expect(await screenOf({ role: "administrator" })).toBe("administrator");
  });

  it("the page's form gives the address lines joined by line feeds, as the API takes them, trimmed; it needs a full name", () => {
    const parse = (entries: Record<string, string>) => nameAddressFormSchema.safeParse(entries);
    expect(
      parse({
        fullName: "  Jane   Roe ",
        addressLine1: " 1 Main St ",
        addressLine2: "",
        addressLine3: "Springfield  IL",
      }).data,
    ).toEqual({
      fullName: "Jane Roe",
      address: "1 Main St\nSpringfield IL",
    });
    expect(parse({ fullName: "   ", addressLine1: "1 Main St" }).success).toBe(false);
    expect(parse({ fullName: "Jane", addressLine1: "" }).success).toBe(false);
    expect(parse({ fullName: "Jane\u0000", addressLine1: "1 Main St" }).success).toBe(false);
    expect(parse({ fullName: "x".repeat(201), addressLine1: "1 Main St" }).success).toBe(false);
  });

  it("refuses invisible characters in every field, and stores names composed (NFC)", () => {
    const parse = (entries: Record<string, string>) => nameAddressFormSchema.safeParse(entries);
    const invisible = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u202a", "\u202e", "\u2066", "\u2069"];
    for (const character of invisible) {
      for (const field of ["fullName", "addressLine1", "addressLine2", "addressLine3"]) {
        const entries = { fullName: "Jane Roe", addressLine1: "1 Main St", [field]: `Jane${character}Roe` };
        const result = parse(entries);
        expect(result.success, `${field} with U+${character.codePointAt(0)!.toString(16)}`).toBe(false);
        expect(result.error?.issues.map((issue) => issue.message)).toContain(nameAddressMessages.invisibleCharacters);
      }
    }
    // "é" typed as e and a combining accent is stored as the one character.
    expect(parse({ fullName: "Rene\u0301 Roe", addressLine1: "1 Main St" }).data?.fullName).toBe("Ren\u00e9 Roe");
  });
});

describe("POST /api/user/set_name_address", () => {
  it("sets the caller's own name and address: 201 with the public user, audited, and the firm's mailbox told", async () => {
    const investor = await createUser();
    const response = await callRoute(routes.setName, {
      path: "/api/user/set_name_address",
      headers: await bearerHeaders(investor.id),
      json: { email: investor.email.toUpperCase(), full_name: " Jane  Roe ", address: "1 Main St  Springfield" },
      ip: "10.1.2.3",
    });
    expect(response.status).toBe(201);
    const body = await response.json();
    expect(body).toEqual({
      id: investor.id,
      email: investor.email,
      fullName: "Jane Roe",
      address: "1 Main St Springfield",
      isNDASent: false,
      isNDASigned: false,
      role: { name: "investor" },
      createdAt: new Date(investor.created_at).toISOString(),
    });
    expect(JSON.stringify(body)).not.toMatch(/hash|password/i);

    const mail = await smtp.waitFor((m) => m.to.includes(FIRM_MAILBOX) && m.text.includes(investor.email));
    expect(mail.subject).toContain("Jane Roe");
    expect(mail.text).toContain("1 Main St Springfield");

    const { events } = await listAuditEvents({ limit: 1 });
    expect(events[0]).toMatchObject({
      action: "profile.name_address.set",
      actorEmail: investor.email,
      targetId: investor.id,
      ip: "10.1.2.3",
    });
  });

  it("takes the form's three address lines, joined by line feeds, and stores them as the form does: joined by spaces, and as lines", async () => {
    const investor = await createUser();
    const response = await callRoute(routes.setName, {
      path: "/api/user/set_name_address",
      headers: await bearerHeaders(investor.id),
      json: { email: investor.email, full_name: "Jane Roe", address: " 1 Main St\n\nSpringfield  IL " },
    });
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ address: "1 Main St Springfield IL" });
    const formGives = nameAddressFormSchema.parse({
      fullName: "Jane Roe",
      addressLine1: "1 Main St",
      addressLine3: "Springfield  IL",
    }).address;
    const { address, addressLines } = addressToStore(formGives);
    expect(await userRow(investor.id)).toMatchObject({ address, address_lines: addressLines });
    expect(addressLines).toBe("1 Main St\nSpringfield IL");

    const fourLines = await callRoute(routes.setName, {
      path: "/api/user/set_name_address",
      headers: await bearerHeaders(investor.id),
      json: { email: investor.email, full_name: "Jane Roe", address: "1\n2\n3\n4" },
    });
    expect(fourLines.status).toBe(400);
    const tooMany = nameAddressMessages.tooManyLines(3);
    expect(await fourLines.json()).toEqual({ message: tooMany, issues: { address: [tooMany] } });
  });

  it("answers 201 even when the firm's mail server refuses", async () => {
    const investor = await createUser();
    smtp.refuse(true);
    try {
      const response = await callRoute(routes.setName, {
        path: "/api/user/set_name_address",
        headers: await bearerHeaders(investor.id),
        json: { email: investor.email, full_name: "Mail Down", address: "2 Main St" },
      });
      expect(response.status).toBe(201);
      expect(await userRow(investor.id)).toMatchObject({ full_name: "Mail Down" });
    } finally {
      smtp.refuse(false);
    }
  });

  it("401 without or with a bad token, nothing stored", async () => {
    const investor = await createUser();
    const attempts: Record<string, string>[] = [{}, { Authorization: "Bearer not-a-token" }];
    for (const headers of attempts) {
      const response = await callRoute(routes.setName, {
        path: "/api/user/set_name_address",
        headers,
        json: { email: investor.email, full_name: "Mallory", address: "x" },
      });
      expect(response.status).toBe(401);
      expect(response.headers.get("WWW-Authenticate")).toMatch(/^Bearer/);
    }
    expect(await userRow(investor.id)).toMatchObject({ full_name: "", address: "" });
  });

  it("refuses an investor naming someone else (IDOR): 403 whether or not the address exists, nothing changes", async () => {
    const victim = await createUser({ fullName: "Victim", address: "1 Safe St" });
    const attacker = await createUser();
    const headers = await bearerHeaders(attacker.id);
    for (const email of [victim.email, "nobody-here@example.com"]) {
      const response = await callRoute(routes.setName, {
        path: "/api/user/set_name_address",
        headers,
        json: { email, full_name: "Owned", address: "Evil St" },
      });
      expect(response.status).toBe(403);
      expect(await response.json()).toHaveProperty("message");
    }
    expect(await userRow(victim.id)).toMatchObject({ full_name: "Victim", address: "1 Safe St" });
    expect(await userRow(attacker.id)).toMatchObject({ full_name: "", address: "" });
  });

  it("ignores role, verification and NDA fields (mass assignment)", async () => {
    const investor = await createUser();
    const before = investor;
    const response = await callRoute(routes.setName, {
      path: "/api/user/set_name_address",
      headers: await bearerHeaders(investor.id),
      json: {
        email: investor.email,
        full_name: "Jane Roe",
        address: "1 Main St",
        role: "administrator",
        role_name: { name: "administrator" },
        isNDASent: true,
        isNDASigned: true,
        is_nda_signed: 1,
        email_verified_at: null,
        id: randomUUID(),
      },
    });
    expect(response.status).toBe(201);
    const after = await userRow(investor.id);
    expect(after).toMatchObject({
      id: investor.id,
      role: "investor",
      is_nda_sent: 0,
      is_nda_signed: 0,
      email_verified_at: before.email_verified_at,
      password_hash: before.password_hash,
      full_name: "Jane Roe",
    });
  });

  it("an administrator may name any user; an unknown address is 404", async () => {
    const admin = await createUser({ role: "administrator", fullName: "Admin", address: "HQ" });
    const investor = await createUser({ signed: true, fullName: "Old", address: "Old St" });
    const headers = await bearerHeaders(admin.id);
    const ok = await callRoute(routes.setName, {
      path: "/api/user/set_name_address",
      headers,
      json: { email: investor.email, full_name: "Corrected Name", address: "New St" },
    });
    expect(ok.status).toBe(201);
    expect(await ok.json()).toMatchObject({ id: investor.id, fullName: "Corrected Name", isNDASigned: true });
    const missing = await callRoute(routes.setName, {
      path: "/api/user/set_name_address",
      headers,
      json: { email: "nobody-at-all@example.com", full_name: "X", address: "Y" },
    });
    expect(missing.status).toBe(404);
  });

  it("an investor's name is fixed once the NDA is sent: 409, nothing changes", async () => {
    const investor = await createUser({ sent: true, fullName: "Jane Roe", address: "1 Main St" });
    const response = await callRoute(routes.setName, {
      path: "/api/user/set_name_address",
      headers: await bearerHeaders(investor.id),
      json: { email: investor.email, full_name: "Someone Else", address: "Elsewhere" },
    });
    expect(response.status).toBe(409);
    expect(await userRow(investor.id)).toMatchObject({ full_name: "Jane Roe", address: "1 Main St" });
  });

  it("names the field in words a person reads when a field is missing or of the wrong type", async () => {
    const investor = await createUser();
    const headers = await bearerHeaders(investor.id);
    const messageFor = async (json: Record<string, unknown>) => {
      const response = await callRoute(routes.setName, { path: "/api/user/set_name_address", headers, json });
      expect(response.status).toBe(400);
      return ((await response.json()) as { message: string }).message;
    };
    expect(await messageFor({ email: investor.email, address: "1 Main St" })).toBe("'full_name' is required.");
    expect(await messageFor({ email: investor.email, full_name: 42, address: "1 Main St" })).toBe(
      "'full_name' must be text.",
    );
    expect(await messageFor({ email: investor.email, full_name: "Jane Roe", address: ["1 Main St"] })).toBe(
      "'address' must be text.",
    );
    // A schema's own message, which names its field, wins.
    expect(await messageFor({ full_name: "Jane Roe", address: "1 Main St" })).toBe("Email address is invalid");
  });

  it("refuses the bad-input catalogue with a clear 4xx, stores nothing and mails nothing", async () => {
    const investor = await createUser();
    const headers = await bearerHeaders(investor.id);
    const mailsBefore = smtp.messages.length;
    const valid = { email: investor.email, full_name: "Jane Roe", address: "1 Main St" };
    const cases: { name: string; status: number; call: Parameters<typeof callRoute>[1] }[] = [
      { name: "no body", status: 415, call: { method: "POST", path: "", body: "" } },
      {
        name: "wrong content type",
        status: 415,
        call: { path: "", body: JSON.stringify(valid), headers: { "Content-Type": "text/plain" } },
      },
      {
        name: "malformed JSON",
        status: 400,
        call: { path: "", body: '{"email":', headers: { "Content-Type": "application/json" } },
      },
      { name: "an array", status: 400, call: { path: "", json: [valid] } },
      {
        name: "a field twice",
        status: 400,
        call: {
          path: "",
          body: `{"email":"${investor.email}","full_name":"A","full_name":"B","address":"x"}`,
          headers: { "Content-Type": "application/json" },
        },
      },
      { name: "over 16 KiB", status: 413, call: { path: "", json: { ...valid, address: "x".repeat(17_000) } } },
      { name: "missing full_name", status: 400, call: { path: "", json: { email: investor.email, address: "x" } } },
      { name: "empty full_name", status: 400, call: { path: "", json: { ...valid, full_name: "   " } } },
      { name: "empty address", status: 400, call: { path: "", json: { ...valid, address: "" } } },
      { name: "full_name a number", status: 400, call: { path: "", json: { ...valid, full_name: 42 } } },
      { name: "address an object", status: 400, call: { path: "", json: { ...valid, address: { line1: "x" } } } },
      { name: "bad e-mail", status: 400, call: { path: "", json: { ...valid, email: "not-an-email" } } },
      { name: "full_name too long", status: 400, call: { path: "", json: { ...valid, full_name: "x".repeat(201) } } },
      { name: "address too long", status: 400, call: { path: "", json: { ...valid, address: "x".repeat(603) } } },
      { name: "a control character", status: 400, call: { path: "", json: { ...valid, full_name: "Jane\u0007Roe" } } },
      {
        name: "a right-to-left override in the name",
        status: 400,
        call: { path: "", json: { ...valid, full_name: "\u202eeoR enaJ" } },
      },
      {
        name: "a zero-width space before a formula",
        status: 400,
        call: { path: "", json: { ...valid, address: "\u200b=HYPERLINK(1)" } },
      },
      { name: "a newline in the name", status: 400, call: { path: "", json: { ...valid, full_name: "Jane\nRoe" } } },
      {
        name: "four lines in the address",
        status: 400,
        call: { path: "", json: { ...valid, address: "1 Main St\nSpringfield\nIllinois\nEvil: header" } },
      },
      {
        name: "a carriage return in the address",
        status: 400,
        call: { path: "", json: { ...valid, address: "1 Main St\r\nSpringfield" } },
      },
    ];
    for (const { name, status, call } of cases) {
      const response = await callRoute(routes.setName, {
        ...call,
        path: "/api/user/set_name_address",
        headers: { ...headers, ...(call.headers ?? {}) },
      });
      expect(response.status, name).toBe(status);
      expect((await response.json()).message, name).toEqual(expect.any(String));
    }
    expect(await userRow(investor.id)).toMatchObject({ full_name: "", address: "" });
    expect(smtp.messages.length).toBe(mailsBefore);

    const get = await callRoute(routes.setName, { method: "GET", path: "/api/user/set_name_address" });
    expect(get.status).toBe(405);
  });
});

describe("the protected files", () => {
  it("parses byte ranges as RFC 9110 reads them", () => {
    expect(parseRange(null, 100)).toBeNull();
    expect(parseRange("bytes=0-9", 100)).toEqual({ start: 0, end: 9 });
    expect(parseRange("bytes=90-", 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange("bytes=-10", 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange("bytes=50-500", 100)).toEqual({ start: 50, end: 99 });
    expect(parseRange("bytes=100-", 100)).toBe("unsatisfiable");
    expect(parseRange("bytes=-0", 100)).toBe("unsatisfiable");
    expect(parseRange("bytes=0-1,5-6", 100)).toBeNull();
    expect(parseRange("items=0-1", 100)).toBeNull();
  });

  it("streams the whole video (200) to a signed-NDA investor, with the headers, and audits it", async () => {
    const investor = await createUser({ signed: true, fullName: "Jane Roe", address: "1 Main St" });
    const response = await callRoute(routes.video, {
      path: "/video/investorvideo.mp4",
      headers: await sessionHeaders(investor.id),
      ip: "10.9.9.9",
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("video/mp4");
    expect(response.headers.get("Content-Length")).toBe(String(VIDEO_BYTES.length));
    expect(response.headers.get("Accept-Ranges")).toBe("bytes");
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    expect(Buffer.from(await response.arrayBuffer()).equals(VIDEO_BYTES)).toBe(true);

    const { events } = await listAuditEvents({ limit: 1 });
    expect(events[0]).toMatchObject({ action: "file.viewed", actorEmail: investor.email, ip: "10.9.9.9" });
    expect(JSON.parse(events[0].details ?? "{}")).toMatchObject({ file: "investorvideo.mp4" });
  });

  it("records a viewing made of 20 range requests as one audit row, and each PDF download as one", async () => {
    // An hour ago, so that these rows never pass for the newest ones that other tests look for.
    testClock.freeze(Date.now() - 60 * 60 * 1000);
    const investor = await createUser({ signed: true, fullName: "Jane Roe", address: "1 Main St" });
    const cookie = await sessionHeaders(investor.id);
    const accessRows = async () =>
      (await listAuditEvents({ limit: 200 })).events.filter(
        (event) => event.actorEmail === investor.email && event.action.startsWith("file."),
      );
    for (let i = 0; i < 20; i++) {
      const range = await callRoute(routes.video, {
        path: "/video/investorvideo.mp4",
        headers: { ...cookie, Range: `bytes=${i * 100}-${i * 100 + 99}` },
      });
      expect(range.status).toBe(206);
    }
    expect(await accessRows()).toEqual([expect.objectContaining({ action: "file.viewed" })]);

    for (let i = 0; i < 2; i++) {
      expect((await callRoute(routes.pdf, { path: "/pdfs/download.pdf", headers: cookie })).status).toBe(200);
    }
    expect((await accessRows()).map((event) => event.action)).toEqual([
      "file.download",
      "file.download",
      "file.viewed",
    ]);

    // Half an hour later (in a new session: the old one has gone idle) it is another viewing.
    testClock.advance(VIDEO_VIEWING_WINDOW_MS + 1);
    const later = await callRoute(routes.video, {
      path: "/video/investorvideo.mp4",
      headers: { ...(await sessionHeaders(investor.id)), Range: "bytes=0-99" },
    });
    expect(later.status).toBe(206);
    expect((await accessRows()).filter((event) => event.action === "file.viewed")).toHaveLength(2);
  });

  it("answers a Range with 206 and the right Content-Range and bytes", async () => {
    const investor = await createUser({ signed: true, fullName: "Jane Roe", address: "1 Main St" });
    const cookie = await sessionHeaders(investor.id);
    const size = VIDEO_BYTES.length;

    const first = await callRoute(routes.video, {
      path: "/video/investorvideo.mp4",
      headers: { ...cookie, Range: "bytes=0-99" },
    });
    expect(first.status).toBe(206);
    expect(first.headers.get("Content-Range")).toBe(`bytes 0-99/${size}`);
    expect(first.headers.get("Content-Length")).toBe("100");
    expect(Buffer.from(await first.arrayBuffer()).equals(VIDEO_BYTES.subarray(0, 100))).toBe(true);

    const tail = await callRoute(routes.video, {
      path: "/video/investorvideo.mp4",
      headers: { ...cookie, Range: "bytes=-500" },
    });
    expect(tail.status).toBe(206);
    expect(tail.headers.get("Content-Range")).toBe(`bytes ${size - 500}-${size - 1}/${size}`);
    expect(Buffer.from(await tail.arrayBuffer()).equals(VIDEO_BYTES.subarray(size - 500))).toBe(true);

    const open = await callRoute(routes.video, {
      path: "/video/investorvideo.mp4",
      headers: { ...cookie, Range: "bytes=1000-" },
    });
    expect(open.status).toBe(206);
    expect(open.headers.get("Content-Range")).toBe(`bytes 1000-${size - 1}/${size}`);
    expect(open.headers.get("Cache-Control")).toBe("private, no-store");
  });

  it("answers an unsatisfiable range with 416 and bytes */size", async () => {
    const investor = await createUser({ signed: true, fullName: "Jane Roe", address: "1 Main St" });
    const response = await callRoute(routes.video, {
      path: "/video/investorvideo.mp4",
      headers: { ...(await sessionHeaders(investor.id)), Range: `bytes=${VIDEO_BYTES.length}-` },
    });
    expect(response.status).toBe(416);
    expect(response.headers.get("Content-Range")).toBe(`bytes */${VIDEO_BYTES.length}`);
  });

  it("serves the PDF to an administrator, the document's own text whole, a stamp naming them on every page, its id in the metadata", async () => {
    const admin = await createUser({ role: "administrator" });
    const response = await callRoute(routes.pdf, {
      path: "/pdfs/download.pdf",
      headers: await sessionHeaders(admin.id),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("application/pdf");
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    const stamped = new Uint8Array(await response.arrayBuffer());
    expect(Number(response.headers.get("Content-Length"))).toBe(stamped.byteLength);
    const original = await pdfPageTexts(PDF_BYTES);
    const pages = await pdfPageTexts(stamped);
    expect(pages).toHaveLength(original.length);
    const { events } = await listAuditEvents({ limit: 1 });
    expect(events[0]).toMatchObject({ action: "file.download", actorEmail: admin.email });
    const details = JSON.parse(events[0].details ?? "{}") as { file: string; downloadId: string };
    expect(details).toEqual({ file: "download.pdf", downloadId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    pages.forEach((text, i) => {
      expect(text).toContain(original[i].trim());
      // An administrator with no name on file is named by e-mail alone.
      expect(text).toContain(`Prepared for ${admin.email} on `);
      expect(text).toContain(`download ID ${details.downloadId}.`);
      // Across the page too, inside its own content.
      expect(text).toContain(`Confidential · ${admin.email} · ${details.downloadId}`);
    });
    const { context } = await PDFDocument.load(stamped);
    const metadata = context.lookup(context.trailerInfo.Info, PDFDict);
    expect(metadata.lookup(PDFName.of("DownloadId"), PDFString).decodeText()).toBe(details.downloadId);
  });

  it("refuses investors without a signed NDA (403) and visitors (to the login page), and audits no access", async () => {
    const { total: before } = await listAuditEvents({ limit: 1 });
    const unsigned = [
      await createUser(),
      await createUser({ fullName: "Jane", address: "1 Main St" }),
      await createUser({ fullName: "Jane", address: "1 Main St", sent: true }),
    ];
    for (const route of [routes.video, routes.pdf]) {
      for (const user of unsigned) {
        const response = await callRoute(route, {
          path: "/file",
          headers: { ...(await sessionHeaders(user.id)), Range: "bytes=0-9" },
        });
        expect(response.status).toBe(403);
        expect(response.headers.get("Content-Type")).not.toMatch(/pdf|video/);
      }
      const visitor = await callRoute(route, { path: "/file" });
      expect(visitor.status).toBe(302);
      expect(visitor.headers.get("Location")).toBe("/financing/login");
      // A bearer token is not a browser session: the files are for the portal's pages.
      const signed = await createUser({ signed: true });
      const withToken = await callRoute(route, { path: "/file", headers: await bearerHeaders(signed.id) });
      expect(withToken.status).toBe(302);
    }
    const { events, total } = await listAuditEvents({ limit: 50 });
    expect(events.slice(0, total - before).filter((e) => e.action === "file.download")).toEqual([]);
  });
});

describe("the /financing page", () => {
  const form = (entries: Record<string, string>) => {
    const body = new URLSearchParams(entries);
    return { body: body.toString(), headers: { "Content-Type": "application/x-www-form-urlencoded" } };
  };
  /** The /financing form as a browser posts it, signed in as the user. */
  const postForm = async (userId: string, entries: Record<string, string>) => {
    const { body, headers } = form(entries);
    return callRoute(routes.page, {
      method: "POST",
      path: "/financing",
      body,
      headers: { ...(await sessionHeaders(userId)), ...headers },
    });
  };

  it("state 0 takes the form: a redirect with the notice, the address lines joined, the firm told", async () => {
    const investor = await createUser();
    const cookie = await sessionHeaders(investor.id);
    const { body, headers } = form({
      fullName: " Jane  Page ",
      addressLine1: "1 Main St ",
      addressLine2: "",
      addressLine3: " Springfield",
      role: "administrator",
      isNDASigned: "true",
    });
    const response = await callRoute(routes.page, {
      method: "POST",
      path: "/financing",
      body,
      headers: { ...cookie, ...headers },
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/financing");
    expect(response.headers.get("Set-Cookie")).toContain("toast");
    expect(await userRow(investor.id)).toMatchObject({
      full_name: "Jane Page",
      address: "1 Main St Springfield",
      address_lines: "1 Main St\nSpringfield",
      role: "investor",
      is_nda_signed: 0,
    });
    await smtp.waitFor((m) => m.to.includes(FIRM_MAILBOX) && m.subject.endsWith("Jane Page"));
  });

  it("refuses an empty full name with its field message, and stores nothing", async () => {
    const investor = await createUser();
    const response = await postForm(investor.id, { fullName: "  ", addressLine1: "1 Main St" });
    expect(response.status).toBe(400);
    expect(JSON.stringify(await response.json())).toContain("Full name cannot be empty");
    expect(await userRow(investor.id)).toMatchObject({ full_name: "", address: "" });
  });

  it("refuses a name or address with invisible characters, with the field's message, and stores nothing", async () => {
    const investor = await createUser();
    for (const entries of [
      { fullName: "Jane\u202e Roe", addressLine1: "1 Main St" },
      { fullName: "Jane Roe", addressLine1: "\u200b=1+1" },
    ]) {
      const response = await postForm(investor.id, entries);
      expect(response.status).toBe(400);
      expect(JSON.stringify(await response.json())).toContain(nameAddressMessages.invisibleCharacters);
    }
    expect(await userRow(investor.id)).toMatchObject({ full_name: "", address: "" });
  });

  it("once the name is given the first form is closed: a later POST of it is 409 and changes nothing (corrections: my-details.test.ts)", async () => {
    const investor = await createUser({ fullName: "Jane Roe", address: "1 Main St" });
    const response = await postForm(investor.id, { fullName: "Someone Else", addressLine1: "Elsewhere" });
    expect(response.status).toBe(409);
    expect(await userRow(investor.id)).toMatchObject({ full_name: "Jane Roe", address: "1 Main St" });
  });

  it("the loader decides from the database: a visitor to login, signed to the materials, an administrator gets the table", async () => {
    const visitor = await callRoute(routes.page, { path: "/financing" });
    expect(visitor.headers.get("Location")).toBe("/financing/login");

    const signed = await createUser({ signed: true, fullName: "Jane Roe", address: "1 Main St" });
    const toMaterials = await callRoute(routes.page, {
      path: "/financing",
      headers: await sessionHeaders(signed.id),
    });
    expect(toMaterials.status).toBe(302);
    expect(toMaterials.headers.get("Location")).toBe("/financing/materials");

    const pending = await createUser({ sent: true, fullName: "Jane Roe", address: "1 Main St" });
    const pendingPage = await callRoute(routes.page, {
      path: "/financing",
      headers: await sessionHeaders(pending.id),
    });
    expect(await pendingPage.json()).toMatchObject({ screen: "nda-pending", table: null });

    const admin = await createUser({ role: "administrator" });
    const adminPage = await callRoute(routes.page, { path: "/financing", headers: await sessionHeaders(admin.id) });
    const data = await adminPage.json();
    expect(data.screen).toBe("administrator");
    expect(data.table.rows.map((row: { id: string }) => row.id)).toContain(pending.id);
  });

  it("the materials page admits signed investors (audited) and refuses the others with 403", async () => {
    const signed = await createUser({ signed: true, fullName: "Jane Roe", address: "1 Main St" });
    const ok = await callRoute(routes.materials, {
      path: "/financing/materials",
      headers: await sessionHeaders(signed.id),
    });
    const page = await ok.json();
    expect(page.fullName).toBe("Jane Roe");
    // Each material once: the specification's links, in its words and to its addresses, each with the
    // details of the library's document holding the same file, every one new at a first visit.
    type Item = { label: string; href: string; details: { mark: string; description: string } | null };
    expect(page.materials.map((item: Item) => [item.label, item.href, item.details?.mark])).toEqual([
      ["Introductory video", "/financing/introductoryvideo", "new"],
      ["Description of the firm (pdf)", "/pdfs/download.pdf", "new"],
      ["Slide deck", "/pdfs/download.pdf", "new"],
      ["Offering details", "/pdfs/download.pdf", "new"],
    ]);
    expect(page.materials[2].details.description).toBe("The investor presentation.");
    const { events } = await listAuditEvents({ limit: 1 });
    expect(events[0]).toMatchObject({ action: "materials.view", actorEmail: signed.email });

    const pending = await createUser({ sent: true, fullName: "Jane Roe", address: "1 Main St" });
    const refused = await callRoute(routes.materials, {
      path: "/financing/materials",
      headers: await sessionHeaders(pending.id),
    });
    expect(refused.status).toBe(403);
  });
});
