/**
 * How an investor qualifies and their indication of interest (docs/decisions/0037): each statement,
 * verification and indication kept, the latest standing; a verification's PDF stored as the library's files
 * are, and expiring after the firm's days; bad input a clear 4xx that stores nothing; a part turned off a
 * 404 that stores nothing; and an investor never sees another's statement, verification or amount.
 */
import { eventInWords } from "~/models/audit/audit-log.server";
import * as interestApi from "~/routes/api.interest";
import * as withdrawApi from "~/routes/api.interest.withdraw";
import * as verificationsApi from "~/routes/api.investors.$id.verifications";
import * as qualificationApi from "~/routes/api.qualification";
import * as indexPage from "~/routes/financing._index";
import * as interestPage from "~/routes/financing.interest";
import * as verifyPage from "~/routes/financing.investors.$id_.qualification";
import * as qualificationPage from "~/routes/financing.qualification";
import { getDb } from "~/server/db.server";
import { callRoute, type RouteModule } from "../support/api-routes";
import { bearerHeaders, sessionHeaders } from "../support/factories";
import { useIntegration } from "../support/integration";
import { countRows as rows } from "../support/library-rows";

const route = (module: unknown) => module as RouteModule;
const { investor, administrator: admin, clock: testClock } = useIntegration();

async function features(on: { qualification: boolean; interest: boolean }, verificationDays = 30) {
  await getDb()
    .updateTable("portal_features")
    .set({
      qualification: on.qualification ? 1 : 0,
      interest: on.interest ? 1 : 0,
      verification_days: verificationDays,
    })
    .execute();
}

function postForm(module: unknown, path: string, headers: Record<string, string>, fields: Record<string, string>) {
  return callRoute(route(module), {
    path,
    method: "POST",
    body: new URLSearchParams(fields).toString(),
    headers: { ...headers, "Content-Type": "application/x-www-form-urlencoded" },
  });
}

async function postMultipart(path: string, id: string, headers: Record<string, string>, form: FormData) {
  const { body, type } = await multipartBody(form);
  return callRoute(route(verifyPage), {
    path,
    params: { id },
    method: "POST",
    body,
    headers: { ...headers, "Content-Type": type },
  });
}

async function multipartBody(form: FormData) {
  const request = new Request("http://localhost/", { method: "POST", body: form });
  return { body: new Uint8Array(await request.arrayBuffer()), type: request.headers.get("Content-Type")! };
}

describe("turned off", () => {
  beforeAll(() => features({ qualification: false, interest: false }));

  it("answers 404 to every page and call, and stores nothing sent anyway", async () => {
    const someone = await investor("nda-signed");
    const page = await sessionHeaders(someone.id);
    const bearer = await bearerHeaders(someone.id);
    expect(
      (await callRoute(route(qualificationPage), { path: "/financing/qualification", headers: page })).status,
    ).toBe(404);
    expect((await callRoute(route(interestPage), { path: "/financing/interest", headers: page })).status).toBe(404);
    expect(
      (
        await postForm(qualificationPage, "/financing/qualification", page, {
          category: "income",
          statedOn: "2026-01-02",
        })
      ).status,
    ).toBe(404);
    expect((await postForm(interestPage, "/financing/interest", page, { amount: "1000" })).status).toBe(404);
    expect((await callRoute(route(qualificationApi), { path: "/api/qualification", headers: bearer })).status).toBe(
      404,
    );
    const stated = await callRoute(route(qualificationApi), {
      path: "/api/qualification",
      json: { category: "unknown", statedOn: "x" },
      headers: bearer,
    });
    expect(stated.status).toBe(404);
    expect(
      (await callRoute(route(interestApi), { path: "/api/interest", json: { amount: -5 }, headers: bearer })).status,
    ).toBe(404);
    expect(
      (await callRoute(route(withdrawApi), { path: "/api/interest/withdraw", method: "POST", headers: bearer })).status,
    ).toBe(404);
    const administrator = await admin();
    const verified = await callRoute(route(verificationsApi), {
      path: `/api/investors/${someone.id}/verifications`,
      params: { id: someone.id },
      json: { method: "cpa_letter", verifiedOn: "2026-01-02" },
      headers: await bearerHeaders(administrator.id),
    });
    expect(verified.status).toBe(404);
    const notPdf = new FormData();
    notPdf.set("method", "cpa_letter");
    notPdf.set("verifiedOn", "2026-01-02");
    notPdf.set("file", new File(["not a pdf at all"], "letter.pdf", { type: "application/pdf" }));
    const { body, type } = await multipartBody(notPdf);
    const verifiedPage = await callRoute(route(verifyPage), {
      path: `/financing/investors/${someone.id}/qualification`,
      params: { id: someone.id },
      method: "POST",
      body,
      headers: { ...(await sessionHeaders(administrator.id)), "Content-Type": type },
    });
    expect(verifiedPage.status).toBe(404);
    for (const table of ["qualification_statements", "verifications", "interest_indications"] as const) {
      expect(await rows(table)).toBe(0);
    }
  });
});

describe("turned on", () => {
  beforeAll(() => features({ qualification: true, interest: true }, 30));

  it("refuses an unknown category and a bad date, storing nothing", async () => {
    const someone = await investor("nda-signed");
    const bearer = await bearerHeaders(someone.id);
    const page = await sessionHeaders(someone.id);
    for (const [body, message] of [
      [{ category: "rich", statedOn: "2026-01-02" }, /Choose one of the categories/],
      [{ category: "income", statedOn: "2026-02-30" }, /YYYY-MM-DD/],
      [{ category: "income", statedOn: "2999-01-01" }, /not in the future/],
    ] as const) {
      const api = await callRoute(route(qualificationApi), { path: "/api/qualification", json: body, headers: bearer });
      expect(api.status).toBe(400);
      expect((await api.json()).message).toMatch(message);
      const form = await postForm(qualificationPage, "/financing/qualification", page, body);
      expect(form.status).toBe(400);
      expect(JSON.stringify(await form.json())).toMatch(message);
    }
    expect(await rows("qualification_statements")).toBe(0);
  });

  it("refuses amounts that are negative, zero, not a number, absurd, and a reversed range, storing nothing", async () => {
    const someone = await investor("nda-signed");
    const bearer = await bearerHeaders(someone.id);
    const page = await sessionHeaders(someone.id);
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ amount: -5 }, /more than 0/],
      [{ amount: 0 }, /more than 0/],
      [{ amount: "lots" }, /whole number/],
      [{ amount: 1.5 }, /whole number/],
      [{ amount: 1e15 }, /at most \$10,000,000,000/],
      [{ amount: 500, low: 900, high: 100 }, /low end/],
      [{ amount: 500, low: 100 }, /both ends/],
    ];
    for (const [body, message] of cases) {
      const api = await callRoute(route(interestApi), { path: "/api/interest", json: body, headers: bearer });
      expect(api.status, JSON.stringify(body)).toBe(400);
      expect((await api.json()).message).toMatch(message);
      const fields = Object.fromEntries(Object.entries(body).map(([name, value]) => [name, String(value)]));
      const form = await postForm(interestPage, "/financing/interest", page, fields);
      expect(form.status, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(await form.json())).toMatch(message);
    }
    expect(await rows("interest_indications")).toBe(0);
  });

  it("keeps every statement, indication and withdrawal, and says so in the audit log", async () => {
    const someone = await investor("nda-signed");
    const bearer = await bearerHeaders(someone.id);
    const page = await sessionHeaders(someone.id);
    expect(
      (
        await postForm(qualificationPage, "/financing/qualification", page, {
          category: "income",
          statedOn: "2026-01-02",
        })
      ).status,
    ).toBe(302);
    testClock.freeze(Date.now() + 1000);
    const second = await callRoute(route(qualificationApi), {
      path: "/api/qualification",
      json: { category: "net_worth", statedOn: "2026-03-04" },
      headers: bearer,
    });
    expect(second.status).toBe(201);
    expect((await second.json()).statements).toMatchObject([
      { category: "net_worth", statedOn: "2026-03-04" },
      { category: "income", statedOn: "2026-01-02" },
    ]);

    expect(
      (await postForm(interestPage, "/financing/interest", page, { amount: "$250,000", note: "Likely" })).status,
    ).toBe(302);
    testClock.freeze(Date.now() + 2000);
    const changed = await callRoute(route(interestApi), {
      path: "/api/interest",
      json: { amount: 300000, low: 200000, high: 400000 },
      headers: bearer,
    });
    expect(changed.status).toBe(201);
    testClock.freeze(Date.now() + 3000);
    const withdrawn = await callRoute(route(withdrawApi), {
      path: "/api/interest/withdraw",
      method: "POST",
      headers: bearer,
    });
    expect(withdrawn.status).toBe(201);
    const answer = await withdrawn.json();
    expect(answer.indications).toMatchObject([
      { withdrawn: true, amount: null },
      { amount: 300000, low: 200000, high: 400000 },
      { amount: 250000, note: "Likely" },
    ]);
    expect(answer.notice).toMatch(/not a commitment/);
    const actions = await getDb()
      .selectFrom("audit_events")
      .select(["action", "details"])
      .where("actor_id", "=", someone.id)
      .where("action", "in", ["qualification.stated", "interest.indicated", "interest.withdrawn"])
      .orderBy("id")
      .execute();
    expect(
      actions.map((row) => eventInWords(row.action, { target: null, details: JSON.parse(row.details ?? "{}") })),
    ).toEqual([
      "Stated how they qualify as an accredited investor",
      "Stated how they qualify as an accredited investor",
      "Indicated a non-binding amount of interest",
      "Indicated a non-binding amount of interest",
      "Withdrew their indication of interest",
    ]);
  });

  it("records a verification with its PDF, expiring after the firm's days; refuses a file that is not a PDF", async () => {
    const someone = await investor("nda-signed");
    const administrator = await admin();
    const adminPage = await sessionHeaders(administrator.id);
    const path = `/financing/investors/${someone.id}/qualification`;
    const blobsBefore = await rows("blobs");

    const notPdf = new FormData();
    notPdf.set("method", "cpa_letter");
    notPdf.set("verifiedOn", "2026-01-02");
    notPdf.set(
      "file",
      new File(["GIF89a, not a PDF whatever its name says"], "letter.pdf", { type: "application/pdf" }),
    );
    const refused = await postMultipart(path, someone.id, adminPage, notPdf);
    expect(refused.status).toBe(415);
    expect((await refused.json()).message).toBe("The verification file must be a PDF.");
    expect(await rows("verifications")).toBe(0);
    expect(await rows("blobs")).toBe(blobsBefore);

    const badMethod = new FormData();
    badMethod.set("method", "astrology");
    badMethod.set("verifiedOn", "2026-01-02");
    expect((await postMultipart(path, someone.id, adminPage, badMethod)).status).toBe(400);

    testClock.freeze(Date.UTC(2026, 0, 20, 12));
    const good = new FormData();
    good.set("method", "cpa_letter");
    good.set("verifiedOn", "2026-01-02");
    good.set("note", "Letter from Smith & Co.");
    good.set("file", new File(["%PDF-1.4\n% a letter\n%%EOF\n"], "smith-letter.pdf", { type: "application/pdf" }));
    const recorded = await postMultipart(path, someone.id, adminPage, good);
    expect(recorded.status).toBe(302);
    expect(await rows("blobs")).toBe(blobsBefore + 1);
    const stored = await getDb()
      .selectFrom("verifications")
      .selectAll()
      .where("user_id", "=", someone.id)
      .executeTakeFirstOrThrow();
    expect(stored.file_name).toBe("smith-letter.pdf");
    expect(
      (await getDb().selectFrom("blobs").select("complete").where("id", "=", stored.blob_id!).executeTakeFirstOrThrow())
        .complete,
    ).toBe(1);

    // The investor sees when it expires (30 days from its date), and, once past, that it expired.
    const mine = await callRoute(route(qualificationApi), {
      path: "/api/qualification",
      headers: await bearerHeaders(someone.id),
    });
    expect((await mine.json()).verifications).toMatchObject([
      { method: "cpa_letter", verifiedOn: "2026-01-02", expiresAt: "2026-02-01T00:00:00.000Z", expired: false },
    ]);
    testClock.freeze(Date.UTC(2026, 1, 2));
    const later = await callRoute(route(qualificationPage), {
      path: "/financing/qualification",
      headers: await sessionHeaders(someone.id),
    });
    expect((await later.json()).verifications[0].expired).toBe(true);

    // By API, for an unknown investor: 404; by an investor's token: 403.
    const unknown = await callRoute(route(verificationsApi), {
      path: "/api/investors/nobody/verifications",
      params: { id: "nobody" },
      json: { method: "cpa_letter", verifiedOn: "2026-01-02" },
      headers: await bearerHeaders(administrator.id),
    });
    expect(unknown.status).toBe(404);
    const byInvestor = await callRoute(route(verificationsApi), {
      path: `/api/investors/${someone.id}/verifications`,
      params: { id: someone.id },
      json: { method: "cpa_letter", verifiedOn: "2026-01-02" },
      headers: await bearerHeaders(someone.id),
    });
    expect(byInvestor.status).toBe(403);
    const [row] = await getDb()
      .selectFrom("audit_events")
      .selectAll()
      .where("action", "=", "verification.recorded")
      .execute();
    expect(eventInWords(row!.action, { target: row!.target_email, details: {} })).toBe(
      `Recorded a verification of how ${someone.email} qualifies`,
    );
  });

  it("never shows an investor another's statement, verification or amount, by API or by page", async () => {
    const owner = await investor("nda-signed");
    const other = await investor("nda-signed");
    const administrator = await admin();
    await callRoute(route(qualificationApi), {
      path: "/api/qualification",
      json: { category: "professional", statedOn: "2026-01-05" },
      headers: await bearerHeaders(owner.id),
    });
    await callRoute(route(interestApi), {
      path: "/api/interest",
      json: { amount: 777777 },
      headers: await bearerHeaders(owner.id),
    });
    await callRoute(route(verificationsApi), {
      path: `/api/investors/${owner.id}/verifications`,
      params: { id: owner.id },
      json: { method: "attorney_letter", verifiedOn: "2026-01-06", note: "Owner's attorney" },
      headers: await bearerHeaders(administrator.id),
    });
    const seen = [
      await callRoute(route(qualificationApi), { path: "/api/qualification", headers: await bearerHeaders(other.id) }),
      await callRoute(route(interestApi), { path: "/api/interest", headers: await bearerHeaders(other.id) }),
      await callRoute(route(qualificationPage), {
        path: "/financing/qualification",
        headers: await sessionHeaders(other.id),
      }),
      await callRoute(route(interestPage), { path: "/financing/interest", headers: await sessionHeaders(other.id) }),
    ];
    for (const answer of seen) {
      expect(answer.status).toBe(200);
      const text = await answer.text();
      expect(text).not.toMatch(/professional|777777|attorney_letter|Owner's attorney/);
    }
    // Trying the owner's records by id: the administrators' page and call are refused to an investor.
    const byId = await callRoute(route(verifyPage), {
      path: `/financing/investors/${owner.id}/qualification`,
      params: { id: owner.id },
      headers: await sessionHeaders(other.id),
    });
    expect(byId.status).toBe(403);
    const query = await callRoute(route(qualificationApi), {
      path: `/api/qualification?id=${owner.id}&userId=${owner.id}`,
      headers: await bearerHeaders(other.id),
    });
    expect(await query.text()).not.toMatch(/professional|attorney_letter/);
    // The administrator sees them on the investor's page.
    const adminView = await callRoute(route(verifyPage), {
      path: `/financing/investors/${owner.id}/qualification`,
      params: { id: owner.id },
      headers: await sessionHeaders(administrator.id),
    });
    expect(await adminView.text()).toMatch(/professional[\s\S]*attorney_letter[\s\S]*777777/);
  });

  it("shows on the investors table until when each investor's latest verification stands, or that it expired", async () => {
    const [twice, lapsed, never] = [
      await investor("nda-signed"),
      await investor("nda-signed"),
      await investor("named"),
    ];
    const administrator = await admin();
    // Dates from today (the sessions are read against the real clock): the firm's days are 30.
    const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
    const day = (offset: number) => new Date(today + offset * 86_400_000).toISOString().slice(0, 10);
    const verify = async (who: { id: string }, verifiedOn: string) => {
      const answer = await callRoute(route(verificationsApi), {
        path: `/api/investors/${who.id}/verifications`,
        params: { id: who.id },
        json: { method: "cpa_letter", verifiedOn },
        headers: await bearerHeaders(administrator.id),
      });
      expect(answer.status).toBe(201);
    };
    await verify(twice, day(-100));
    await verify(lapsed, day(-35));
    // Recorded a moment later, so it is the latest.
    testClock.freeze(Date.now() + 1000);
    await verify(twice, day(-10));
    testClock.reset();

    const headers = await sessionHeaders(administrator.id);
    const rowOf = async (who: { id: string; email: string }) => {
      const page = await callRoute(route(indexPage), {
        path: `/financing?q=${encodeURIComponent(who.email)}`,
        headers,
      });
      const { table } = await page.json();
      return (table.rows as { id: string; verification: unknown }[]).find((row) => row.id === who.id)!;
    };
    // 30 days from the latest verification's date; the earlier one, long expired, does not count.
    expect((await rowOf(twice)).verification).toEqual({ expiresAt: `${day(20)}T00:00:00.000Z`, expired: false });
    expect((await rowOf(lapsed)).verification).toEqual({ expiresAt: `${day(-5)}T00:00:00.000Z`, expired: true });
    expect((await rowOf(never)).verification).toBeNull();
  });
});
