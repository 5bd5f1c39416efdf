/**
 * The NDA's steps keep their history (issue 49, item 7): each step is the first time it was done, by whom
 * it was done; a correction of the name and address is a line of its own; marking the NDA signed (which
 * also sets "sent") does not move "sent"; a flag undone and done again shows its current run, with the
 * earlier run and the undoing beneath. The investor's page (and get_investor), the investor's "Download my
 * data" and the audit log are read, and held to one another. A real database and a real SMTP catcher.
 */
import { myDataContent } from "~/content/my-details";
import { registerAccount, verifyEmail } from "~/models/account/sign-up.server";
import * as auditRoute from "~/routes/api.audit";
import * as getInvestorRoute from "~/routes/api.user.get_investor";
import * as signedRoute from "~/routes/api.user.update_nda_signed";
import * as indexRoute from "~/routes/financing._index";
import * as investorRoute from "~/routes/financing.investors.$id";
import * as dataRoute from "~/routes/financing.security_.data";
import { testClock } from "~/server/clock.server";
import { getDb } from "~/server/db.server";
import { addressSequence, callRoute, routeModules } from "../support/api-routes";
import { bearerHeaders, createSession, createUser } from "../support/factories";
import { useIntegration } from "../support/integration";
import { tokenIn } from "../support/mail-links";

const routes = routeModules({
  audit: auditRoute,
  getInvestor: getInvestorRoute,
  signed: signedRoute,
  index: indexRoute,
  investor: investorRoute,
  data: dataRoute,
});
const FORM = { "Content-Type": "application/x-www-form-urlencoded" };
const freshIp = addressSequence("10.49");
const minute = (n: number) => Date.UTC(2026, 10, 2, 9, n, 0);
const iso = (at: number) => new Date(at).toISOString();

const { smtp } = useIntegration({ mail: true });

async function administrator(email: string) {
  const admin = await createUser({ named: true, role: "administrator", email });
  return { admin, cookie: (await createSession(admin.id)).cookie, api: await bearerHeaders(admin.id) };
}

type Admin = Awaited<ReturnType<typeof administrator>>;

/** A form posted to the investor's page as the administrator's browser sends it: the page's own, or the table's. */
function postToInvestorPage({ cookie }: Admin, id: string, fields: Record<string, string>) {
  return callRoute(routes.investor, {
    method: "POST",
    ip: freshIp(),
    path: `/financing/investors/${id}`,
    params: { id },
    headers: { Cookie: cookie, ...FORM },
    body: new URLSearchParams(fields).toString(),
  });
}

/** The table's flag form: it posts to the investor's page, and comes back to the table. */
const markFromTable = (admin: Admin, id: string, intent: "nda-sent" | "nda-signed", state: "yes" | "no") =>
  postToInvestorPage(admin, id, { intent, state, returnTo: "/financing" });

async function markSignedByApi({ api }: Admin, email: string) {
  const answer = await callRoute(routes.signed, {
    method: "POST",
    path: "/api/user/update_nda_signed",
    headers: api,
    json: { email, state: true },
  });
  expect(answer.status).toBe(201);
}

/** What each of the three says of the investor: the page's steps, get_investor's, the export's, and the audit log oldest first. */
async function threeRecords(admin: Admin, investor: { id: string; email: string }) {
  const page = await callRoute(routes.investor, {
    path: `/financing/investors/${investor.id}`,
    params: { id: investor.id },
    headers: { Cookie: admin.cookie },
  });
  expect(page.status).toBe(200);
  const api = await callRoute(routes.getInvestor, {
    path: `/api/user/get_investor?id=${investor.id}`,
    headers: admin.api,
  });
  expect(api.status).toBe(200);
  const { cookie } = await createSession(investor.id);
  const data = await callRoute(routes.data, {
    method: "POST",
    path: "/financing/security/data",
    body: "",
    headers: { Cookie: cookie, ...FORM },
  });
  expect(data.status).toBe(200);
  const audit = await callRoute(routes.audit, {
    path: `/api/audit?${new URLSearchParams({ investor: investor.email })}`,
    headers: admin.api,
  });
  expect(audit.status).toBe(200);
  const events: { at: string; action: string; actorEmail: string | null; details: Record<string, unknown> }[] = (
    await audit.json()
  ).events;
  return {
    page: (await page.json()).record.timeline,
    api: (await api.json()).investor.timeline,
    export: (await data.json()).nda,
    log: events.reverse(),
  };
}

const you = myDataContent.by.you;
const firm = myDataContent.by.administrator;

describe("the NDA's steps", () => {
  it("after a correction and a signature: given by the investor, the correction its own line, sent and signed each at its own first time", async () => {
    const email = "history.jane@example.com";
    testClock.freeze(minute(0));
    await registerAccount({ email, password: "a long passphrase 49", ip: freshIp() });
    expect(await verifyEmail(tokenIn(await smtp.mailTo(email, "Verify your email address"), "/auth/verify/"))).toEqual({
      ok: true,
    });
    const investor = await getDb().selectFrom("users").selectAll().where("email", "=", email).executeTakeFirstOrThrow();

    testClock.freeze(minute(1));
    const given = await callRoute(routes.index, {
      method: "POST",
      path: "/financing?index",
      headers: { Cookie: (await createSession(investor.id)).cookie, ...FORM },
      body: new URLSearchParams({
        fullName: "Jane Rowe",
        addressLine1: "1 Main St",
        addressLine2: "Springfield",
      }).toString(),
    });
    expect(given.status).toBe(302);

    testClock.freeze(minute(2));
    const admin = await administrator("history.admin@example.com");
    const corrected = await postToInvestorPage(admin, investor.id, {
      intent: "correct",
      fullName: "Jane Roe",
      address: "1 Main St Springfield",
      reason: "Misspelt on the phone",
    });
    expect(corrected.status).toBe(302);

    testClock.freeze(minute(3));
    expect((await markFromTable(admin, investor.id, "nda-sent", "yes")).status).toBe(302);
    testClock.freeze(minute(4));
    await markSignedByApi(admin, email);
    // "Sent" saved again: a row in the log, but nothing happened to the step.
    testClock.freeze(minute(5));
    expect((await markFromTable(admin, investor.id, "nda-sent", "yes")).status).toBe(302);

    testClock.freeze(minute(6));
    const { page, api, export: data, log } = await threeRecords(admin, investor);

    // The audit log's rows: who did what, when.
    const rows = (action: string) => log.filter((event) => event.action === action);
    const [set] = rows("profile.name_address.set");
    const [correction] = rows("investor.corrected");
    const [sent, sentAgain] = rows("nda.sent.changed");
    const [signed] = rows("nda.signed.changed");
    expect(set).toMatchObject({ at: iso(minute(1)), actorEmail: email });
    expect(correction).toMatchObject({ at: iso(minute(2)), actorEmail: admin.admin.email });
    expect(sent).toMatchObject({ at: iso(minute(3)), actorEmail: admin.admin.email, details: { state: true } });
    expect(signed).toMatchObject({ at: iso(minute(4)), actorEmail: admin.admin.email, details: { isNDASent: true } });
    expect(sentAgain).toMatchObject({ at: iso(minute(5)), details: { state: true } });

    // The page (and get_investor) says the same, by e-mail address.
    expect(page).toEqual({
      details: {
        done: true,
        at: set.at,
        by: set.actorEmail,
        history: [{ change: "corrected", at: correction.at, by: correction.actorEmail }],
      },
      sent: { done: true, at: sent.at, by: sent.actorEmail, history: [] },
      signed: { done: true, at: signed.at, by: signed.actorEmail, history: [] },
    });
    expect(api).toEqual(page);

    // The investor's export says the same, as "you" and "the firm".
    expect(data).toEqual({
      detailsGiven: {
        done: true,
        at: set.at,
        by: you,
        history: [{ change: "corrected", at: correction.at, by: firm }],
      },
      sent: { done: true, at: sent.at, by: firm, history: [] },
      signed: { done: true, at: signed.at, by: firm, history: [] },
    });
  });

  it("a flag undone and done again shows its current run, the earlier run and the undoing beneath; signing sets sent at that time", async () => {
    const investor = await createUser({ named: true, email: "history.joe@example.com" });
    const admin = await administrator("history.boss@example.com");

    // Signed first, through the API: that sets "sent" too, at the same time.
    testClock.freeze(minute(10));
    await markSignedByApi(admin, investor.email);
    // "Sent: No" from the table clears "signed"; then signed again from the table.
    testClock.freeze(minute(11));
    expect((await markFromTable(admin, investor.id, "nda-sent", "no")).status).toBe(302);
    testClock.freeze(minute(12));
    expect((await markFromTable(admin, investor.id, "nda-signed", "yes")).status).toBe(302);

    testClock.freeze(minute(13));
    const { page, api, export: data, log } = await threeRecords(admin, investor);
    const flags = log.filter((event) => event.action.startsWith("nda."));
    expect(flags.map((event) => [event.action, event.at, event.details.state])).toEqual([
      ["nda.signed.changed", iso(minute(10)), true],
      ["nda.sent.changed", iso(minute(11)), false],
      ["nda.signed.changed", iso(minute(12)), true],
    ]);
    const [first, undone, again] = flags;
    const by = admin.admin.email;

    const flag = (who: string) => ({
      done: true,
      at: again.at,
      by: who,
      history: [
        { change: "done", at: first.at, by: who },
        { change: "undone", at: undone.at, by: who },
      ],
    });
    // The details were given before the trail recorded them: done, undated, with nothing beneath.
    expect(page).toEqual({
      details: { done: true, at: null, by: null, history: [] },
      sent: flag(by),
      signed: flag(by),
    });
    expect(api).toEqual(page);
    expect(data).toEqual({
      detailsGiven: { done: true, at: null, by: null, history: [] },
      sent: flag(firm),
      signed: flag(firm),
    });
  });
});
