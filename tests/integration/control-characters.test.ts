/**
 * NUL and the other C0 control characters (but tab, line feed and carriage return) in what a client sends:
 * a page form's field, a JSON body's field or name, an API call's path parameter or query. PostgreSQL cannot
 * keep a NUL in text and fails the query ("invalid byte sequence for encoding UTF8: 0x00"), SQLite keeps it:
 * the edge refuses them before either sees one, so both engines answer the same 400 with a message, store
 * nothing and send no mail. Runs on both engines (the `postgres` project runs it again on PostgreSQL).
 * A control character in the address itself (a page's path or query) is refused by server.js, before any
 * route: tests/e2e/security.http.spec.ts.
 */
import { apiMessages } from "~/content/api-messages";
import { controlCharacterErrors } from "~/content/forms";
import { honeypotFields } from "~/http/honeypot.server";
import { settleAccountMail } from "~/models/account/account-mail.server";
import * as contactPage from "~/routes/_site.contact";
import * as forgotPasswordRoute from "~/routes/api.auth.forgot-password.$email";
import * as registerRoute from "~/routes/api.auth.register";
import * as deleteInvestorRoute from "~/routes/api.user.delete_investor";
import * as getInvestorsRoute from "~/routes/api.user.get_investors";
import * as nameAddressRoute from "~/routes/api.user.set_name_address";
import * as ndaSignedRoute from "~/routes/api.user.update_nda_signed";
import * as loginPage from "~/routes/financing.login";
import * as securityPage from "~/routes/financing.security/route";
import * as passkeysRoute from "~/routes/financing.security_.passkeys";
import { getDb } from "~/server/db.server";
import { addressSequence, callRoute, type RouteCall, type RouteModule, routeModules } from "../support/api-routes";
import { accessTokenFor, createUser, sessionCookieFor } from "../support/factories";
import { useIntegration } from "../support/integration";
import { enrolTotp } from "../support/outside-database";

const routes = routeModules({
  contact: contactPage,
  login: loginPage,
  security: securityPage,
  passkeys: passkeysRoute,
  register: registerRoute,
  forgotPassword: forgotPasswordRoute,
  getInvestors: getInvestorsRoute,
  setNameAddress: nameAddressRoute,
  ndaSigned: ndaSignedRoute,
  deleteInvestor: deleteInvestorRoute,
});

const PASSWORD = "control characters passphrase";
const freshIp = addressSequence("10.41");
/** Who sends: an administrator (bearer), an investor with an authenticator app (cookie and bearer). */
let people: { adminBearer: string; investorEmail: string; investorCookie: string; investorBearer: string };
let investorId: string;

const { smtp } = useIntegration({ mail: true });
beforeAll(async () => {
  const admin = await createUser({ role: "administrator", named: true });
  const investor = await createUser({ email: "control.investor@example.com", password: PASSWORD, named: true });
  await enrolTotp(getDb(), investor.email);
  investorId = investor.id;
  people = {
    adminBearer: await accessTokenFor(admin.id),
    investorEmail: investor.email,
    investorCookie: await sessionCookieFor(investor.id),
    investorBearer: await accessTokenFor(investor.id),
  };
});

/** What a refused request must leave as it was: every row a use case could have written. */
async function storedState() {
  const db = getDb();
  const count = async (table: "contact_messages" | "audit_events" | "passkeys" | "one_time_tokens" | "sessions") =>
    Number((await db.selectFrom(table).select(db.fn.countAll().as("n")).executeTakeFirstOrThrow()).n);
  return {
    users: await db.selectFrom("users").selectAll().orderBy("id").execute(),
    contactMessages: await count("contact_messages"),
    auditEvents: await count("audit_events"),
    passkeys: await count("passkeys"),
    oneTimeTokens: await count("one_time_tokens"),
    sessions: await count("sessions"),
  };
}

/** Sends the request; it must be refused with 400 (never a 500, never a thrown database error), change nothing and mail nobody. */
async function refused(route: RouteModule, call: RouteCall): Promise<unknown> {
  const before = await storedState();
  const mails = smtp.messages.length;
  const response = await callRoute(route, { ip: freshIp(), ...call });
  const body = (await response.json()) as unknown;
  expect(response.status, JSON.stringify(body)).toBe(400);
  await settleAccountMail();
  expect(await storedState()).toEqual(before);
  expect(smtp.messages.length).toBe(mails);
  return body;
}

/** A page form's POST, urlencoded as a browser sends it. */
function form(path: string, fields: [string, string][], cookie?: string): RouteCall {
  return {
    method: "POST",
    path,
    body: new URLSearchParams(fields).toString(),
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...(cookie ? { Cookie: cookie } : {}) },
  };
}

/** The messages of a page form's reply, by field (`""` for the form's own), whichever way the page wraps it. */
function formErrorsOf(body: unknown): Record<string, string[]> {
  const reply = (body as { result?: unknown }).result ?? body;
  return (reply as { error: Record<string, string[]> }).error;
}

const contactFields = (overrides: Record<string, string>): [string, string][] => {
  const honeypot = honeypotFields(Date.now() - 5_000);
  return Object.entries({
    firstName: "Ada",
    lastName: "Lovelace",
    email: "ada@example.com",
    message: "Please send the fee schedule.",
    [honeypot.trapField]: "",
    [honeypot.stampField]: honeypot.stamp,
    ...overrides,
  });
};

describe("a page form's field or name with a control character is the form's 400, nothing done", () => {
  it.each([
    ["a NUL in the contact message", { message: "Please\u0000 call" }, "message"],
    ["an escape (ESC) in the contact message", { message: "Please \u001b[31mcall" }, "message"],
    ["a NUL in the contact form's last name", { lastName: "Love\u0000lace" }, "lastName"],
  ])("%s", async (_label, overrides, field) => {
    const body = await refused(routes.contact, form("/contact", contactFields(overrides)));
    expect(formErrorsOf(body)[field]).toEqual([controlCharacterErrors.field]);
  });

  it("a NUL in the login's password is refused before the password is checked", async () => {
    const body = await refused(
      routes.login,
      form("/financing/login", [
        ["email", people.investorEmail],
        ["password", `${PASSWORD}\u0000`],
      ]),
    );
    expect(formErrorsOf(body).password).toEqual([controlCharacterErrors.field]);
  });

  it("a NUL in the name of a field is the form's own error", async () => {
    const body = await refused(
      routes.login,
      form("/financing/login", [
        ["email", people.investorEmail],
        ["password", PASSWORD],
        ["pass\u0000word", PASSWORD],
      ]),
    );
    expect(formErrorsOf(body)[""]).toEqual([controlCharacterErrors.name]);
  });

  it("a NUL in the passkey to remove (/financing/security, with the right password)", async () => {
    const body = await refused(
      routes.security,
      form(
        "/financing/security",
        [
          ["intent", "remove-passkey"],
          ["passkeyId", "c29tZS\u0000jcmVk"],
          ["password", PASSWORD],
        ],
        people.investorCookie,
      ),
    );
    expect(formErrorsOf(body)[""]).toEqual([controlCharacterErrors.field]);
  });
});

describe("a JSON body's field or name with a control character is 400 with `issues`, nothing done", () => {
  const post = (path: string, json: unknown, headers: Record<string, string>): RouteCall => ({
    method: "POST",
    path,
    json,
    headers,
  });
  const admin = () => ({ Authorization: `Bearer ${people.adminBearer}` });

  it.each([
    ["delete_investor's id", () => post("/api/user/delete_investor", { id: `${investorId}\u0000` }, admin()), "id"],
    [
      "update_nda_signed's e-mail",
      () => post("/api/user/update_nda_signed", { email: `nul\u0000${people.investorEmail}`, state: true }, admin()),
      "email",
    ],
    [
      "set_name_address's address",
      () =>
        post(
          "/api/user/set_name_address",
          { email: people.investorEmail, full_name: "Ada Lovelace", address: "1 Main\u0000 Street" },
          { Authorization: `Bearer ${people.investorBearer}` },
        ),
      "address",
    ],
    [
      "register's password",
      () => post("/api/auth/register", { email: "control.new@example.com", password: `${PASSWORD}\u0007` }, {}),
      "password",
    ],
    [
      "a passkey answer's id (nested)",
      () =>
        post(
          "/financing/security/passkeys",
          {
            challengeId: "C".repeat(43),
            response: {
              id: "c29tZS\u0000jcmVk",
              rawId: "c29tZS1jcmVk",
              type: "public-key",
              clientExtensionResults: {},
              response: { clientDataJSON: "eyJ0eXBlIjoid2ViYXV0aG4uZ2V0In0", attestationObject: "o2NmbXRkbm9uZQ" },
            },
          },
          { Cookie: people.investorCookie },
        ),
      "response.id",
    ],
    [
      "a field's name",
      () => post("/api/user/delete_investor", { id: investorId, "i\u0000d": "x" }, admin()),
      "i\\u0000d",
    ],
  ] as const)("%s", async (label, request, field) => {
    const route = {
      "delete_investor's id": routes.deleteInvestor,
      "update_nda_signed's e-mail": routes.ndaSigned,
      "set_name_address's address": routes.setNameAddress,
      "register's password": routes.register,
      "a passkey answer's id (nested)": routes.passkeys,
      "a field's name": routes.deleteInvestor,
    }[label];
    const body = (await refused(route, request())) as { message: string; issues: Record<string, string[]> };
    expect(body).toEqual({
      message: apiMessages.controlCharacter(field),
      issues: { [field]: [apiMessages.controlCharacter(field)] },
    });
  });
});

describe("an API call's path parameter or query with a control character is 400 with `issues`", () => {
  it("forgot-password's e-mail in the path", async () => {
    const email = `nul\u0000${people.investorEmail}`;
    const body = await refused(routes.forgotPassword, {
      path: `/api/auth/forgot-password/${encodeURIComponent(email)}`,
      params: { email },
    });
    expect(body).toEqual({
      message: apiMessages.controlCharacter("email"),
      issues: { email: [apiMessages.controlCharacter("email")] },
    });
  });

  it("get_investors' cursor in the query", async () => {
    const body = await refused(routes.getInvestors, {
      path: "/api/user/get_investors?limit=2&cursor=%00",
      headers: { Authorization: `Bearer ${people.adminBearer}` },
    });
    expect(body).toEqual({
      message: apiMessages.controlCharacter("cursor"),
      issues: { cursor: [apiMessages.controlCharacter("cursor")] },
    });
  });
});
