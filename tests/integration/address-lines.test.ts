/**
 * An address is stored twice over, and the two never disagree (decision 0031): `address`, its lines joined
 * by single spaces, is what the API, the CSV and the audit rows carry, as the specification has it;
 * `address_lines`, the same lines joined by line feeds, is what the status page, the investor table and the
 * investor's page show apart. Every way an address is written keeps both: the /financing form, the API's
 * line-feed lines, the investor's own correction and the administrator's. A real database (SQLite, or
 * PostgreSQL through the postgres project) and a real SMTP catcher.
 */
import { addressToStore } from "~/models/investors/name-address-schema.server";
import * as getInvestorRoute from "~/routes/api.user.get_investor";
import * as getInvestorsRoute from "~/routes/api.user.get_investors";
import * as setNameRoute from "~/routes/api.user.set_name_address";
import * as pageRoute from "~/routes/financing._index";
import * as investorPageRoute from "~/routes/financing.investors.$id";
import * as csvRoute from "~/routes/financing.investors[.]csv";
import { getDb } from "~/server/db.server";
import { addressSequence, callRoute, routeModules } from "../support/api-routes";
import { accessTokenFor, createSession, createUser, sessionHeaders, userRow } from "../support/factories";
import { useIntegration } from "../support/integration";

const routes = routeModules({
  page: pageRoute,
  investorPage: investorPageRoute,
  csv: csvRoute,
  setName: setNameRoute,
  getInvestor: getInvestorRoute,
  getInvestors: getInvestorsRoute,
});
const FORM = { "Content-Type": "application/x-www-form-urlencoded" };
const LINES = ["1 Main Street", "Suite 200", "Springfield, IL 62701"];
/** The specification's address: the lines joined by single spaces. */
const ADDRESS = "1 Main Street Suite 200 Springfield, IL 62701";
const freshIp = addressSequence("10.49");

useIntegration({ mail: true });

function postForm(path: string, cookie: string, fields: Record<string, string>, params: Record<string, string> = {}) {
  const route = path === "/financing?index" ? routes.page : routes.investorPage;
  return callRoute(route, {
    method: "POST",
    path,
    params,
    body: new URLSearchParams(fields).toString(),
    headers: { Cookie: cookie, ...FORM },
    ip: freshIp(),
  });
}

async function administrator() {
  const admin = await createUser({ named: true, role: "administrator" });
  const { cookie } = await createSession(admin.id);
  return { admin, cookie, bearer: { Authorization: `Bearer ${await accessTokenFor(admin.id)}` } };
}

/** An investor who gave the form's three lines (state 0 of /financing), and their session. */
async function investorWithLines() {
  const investor = await createUser();
  const { Cookie: cookie } = await sessionHeaders(investor.id);
  const answer = await postForm("/financing?index", cookie, {
    fullName: "Jane Roe",
    addressLine1: ` ${LINES[0]} `,
    addressLine2: LINES[1],
    addressLine3: `${LINES[2]}  `,
  });
  expect(answer.status).toBe(302);
  return { investor, cookie };
}

const storedAddress = async (id: string) => {
  const row = await userRow(id);
  return { address: row?.address, address_lines: row?.address_lines };
};

const auditDetails = async (action: string, targetId: string) => {
  const rows = await getDb()
    .selectFrom("audit_events")
    .select("details")
    .where("action", "=", action)
    .where("target_id", "=", targetId)
    .execute();
  return rows.map((row) => JSON.parse(row.details ?? "{}"));
};

describe("addressToStore", () => {
  it("joins the lines given by spaces, keeps them as lines, and keeps the stored lines for the same address", () => {
    expect(addressToStore(" 1 Main  Street \n\n Suite 200\nSpringfield, IL 62701 ")).toEqual({
      address: ADDRESS,
      addressLines: LINES.join("\n"),
    });
    const stored = addressToStore(LINES.join("\n"));
    // The same address on one line (a correction of the name alone): its lines stay.
    expect(addressToStore(ADDRESS, stored)).toBe(stored);
    // Another address on one line: its one line, so the lines still make the address.
    expect(addressToStore("2 Side Road", stored)).toEqual({ address: "2 Side Road", addressLines: "2 Side Road" });
    expect(addressToStore("  \n ")).toEqual({ address: "", addressLines: null });
  });
});

describe("the form's three lines", () => {
  it("are stored as the specification's address, joined by spaces, and as lines; every page shows the lines", async () => {
    const { investor, cookie } = await investorWithLines();
    expect(await storedAddress(investor.id)).toEqual({ address: ADDRESS, address_lines: LINES.join("\n") });

    // The investor's status page.
    const status = await (await callRoute(routes.page, { path: "/financing", headers: { Cookie: cookie } })).json();
    expect(status.progress.details).toMatchObject({ address: ADDRESS, addressLines: LINES.join("\n") });

    // The administrators' table and the investor's page.
    const { cookie: adminCookie } = await administrator();
    const table = await callRoute(routes.page, {
      path: `/financing?q=${encodeURIComponent(investor.email)}`,
      headers: { Cookie: adminCookie },
    });
    const { rows } = (await table.json()).table;
    expect(rows).toMatchObject([{ id: investor.id, address: ADDRESS, addressLines: LINES.join("\n") }]);
    const page = await callRoute(routes.investorPage, {
      path: `/financing/investors/${investor.id}`,
      params: { id: investor.id },
      headers: { Cookie: adminCookie },
    });
    expect((await page.json()).record).toMatchObject({ address: ADDRESS, addressLines: LINES.join("\n") });
  });

  it("reach the API and the CSV as the specification's one string, without the lines", async () => {
    const { investor } = await investorWithLines();
    const { cookie, bearer } = await administrator();

    const one = await callRoute(routes.getInvestor, {
      path: `/api/user/get_investor?id=${investor.id}`,
      headers: bearer,
    });
    expect(one.status).toBe(200);
    const { investor: answered } = await one.json();
    expect(answered.address).toBe(ADDRESS);
    expect(answered).not.toHaveProperty("addressLines");

    const list = await callRoute(routes.getInvestors, { path: "/api/user/get_investors", headers: bearer });
    const listed = (await list.json()).users.find((user: { id: string }) => user.id === investor.id);
    expect(Object.keys(listed).sort()).toEqual(
      ["address", "createdAt", "email", "fullName", "id", "isNDASent", "isNDASigned", "role"].sort(),
    );
    expect(listed.address).toBe(ADDRESS);

    const csv = await callRoute(routes.csv, {
      path: `/financing/investors.csv?q=${encodeURIComponent(investor.email)}`,
      headers: { Cookie: cookie },
    });
    expect(await csv.text()).toContain(`"Jane Roe","${investor.email}","${ADDRESS}"`);
  });
});

describe("the API's address, its lines joined by line feeds", () => {
  it("is stored as the form's is, and answered as the specification's one string", async () => {
    const investor = await createUser();
    const answer = await callRoute(routes.setName, {
      path: "/api/user/set_name_address",
      headers: { Authorization: `Bearer ${await accessTokenFor(investor.id)}` },
      json: { email: investor.email, full_name: "Jane Roe", address: LINES.join("\n") },
    });
    expect(answer.status).toBe(201);
    expect(await answer.json()).toMatchObject({ address: ADDRESS });
    expect(await storedAddress(investor.id)).toEqual({ address: ADDRESS, address_lines: LINES.join("\n") });
  });
});

describe("a correction keeps the address and its lines agreeing", () => {
  it("the investor's own, one typed line: the line is the address's one line; the audit row carries the address", async () => {
    const { investor, cookie } = await investorWithLines();
    const answer = await postForm("/financing?index", cookie, {
      intent: "correct",
      fullName: "Jane Roe",
      address: " 2 Side  Road, Springfield ",
    });
    expect(answer.status).toBe(302);
    expect(await storedAddress(investor.id)).toEqual({
      address: "2 Side Road, Springfield",
      address_lines: "2 Side Road, Springfield",
    });
    expect(await auditDetails("profile.name_address.corrected", investor.id)).toEqual([
      {
        before: { fullName: "Jane Roe", address: ADDRESS },
        after: { fullName: "Jane Roe", address: "2 Side Road, Springfield" },
      },
    ]);
  });

  it("the administrator's: the name alone keeps the lines; a new address is its one line", async () => {
    const { investor } = await investorWithLines();
    const { cookie } = await administrator();
    const correct = (fields: Record<string, string>) =>
      postForm(
        `/financing/investors/${investor.id}`,
        cookie,
        { intent: "correct", reason: "By phone", ...fields },
        {
          id: investor.id,
        },
      );

    // The form shows the address on one line: sent back unchanged, the lines stay as given.
    expect((await correct({ fullName: "Jane Q. Roe", address: ADDRESS })).status).toBe(302);
    expect(await storedAddress(investor.id)).toEqual({ address: ADDRESS, address_lines: LINES.join("\n") });

    expect((await correct({ fullName: "Jane Q. Roe", address: "3 Hill Lane" })).status).toBe(302);
    expect(await storedAddress(investor.id)).toEqual({ address: "3 Hill Lane", address_lines: "3 Hill Lane" });
    const [, second] = await auditDetails("investor.corrected", investor.id);
    expect(second).toMatchObject({ before: { address: ADDRESS }, after: { address: "3 Hill Lane" } });
  });

  it("a refused correction changes neither", async () => {
    const { investor } = await investorWithLines();
    const { cookie } = await administrator();
    const refused = await postForm(
      `/financing/investors/${investor.id}`,
      cookie,
      { intent: "correct", reason: "By phone", fullName: "Jane Roe", address: "" },
      { id: investor.id },
    );
    expect(refused.status).toBe(400);
    expect(await storedAddress(investor.id)).toEqual({ address: ADDRESS, address_lines: LINES.join("\n") });
  });
});

describe("an address stored before its lines were kept", () => {
  it("has no lines: the pages show the address as it is", async () => {
    const investor = await createUser({ fullName: "Old Timer", address: "9 Old Road Oldtown" });
    const { cookie } = await administrator();
    const page = await callRoute(routes.investorPage, {
      path: `/financing/investors/${investor.id}`,
      params: { id: investor.id },
      headers: { Cookie: cookie },
    });
    expect((await page.json()).record).toMatchObject({ address: "9 Old Road Oldtown", addressLines: null });
  });
});
