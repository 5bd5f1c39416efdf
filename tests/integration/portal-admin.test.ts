/**
 * The administrator's side: the model (table query, NDA invariant, delete,
 * audit, CSV) and the /api/user administrator calls, against a real SQLite
 * file and a real SMTP catcher.
 */
import { createHmac, randomUUID } from "node:crypto";
import { formatRegistrationTime, safeReturnTo } from "~/lib/investor-table";
import { issueApiTokens } from "~/models/account/api-token.server";
import { toPublicUser, type PublicUser } from "~/models/account/user.server";
import { listAuditEvents } from "~/models/audit/audit.server";
import { csvCell, investorsCsv } from "~/models/investors/investor-csv.server";
import { deleteInvestor } from "~/models/investors/investor-deletion.server";
import { investorsJsonBytes } from "~/models/investors/investor-list-api.server";
import { investorsForExport, loadInvestorTable } from "~/models/investors/investor-table.server";
import { setNdaSent, setNdaSigned } from "~/models/investors/nda-flags.server";
import { searchTextFor } from "~/models/investors/search-text.server";
import * as deleteRoute from "~/routes/api.user.delete_investor";
import * as listRoute from "~/routes/api.user.get_investors";
import * as sentRoute from "~/routes/api.user.update_nda_sent";
import * as signedRoute from "~/routes/api.user.update_nda_signed";
import * as auditPage from "~/routes/financing.audit/route";
import * as flagPage from "~/routes/financing.investors.$id";
import * as deletePage from "~/routes/financing.investors.$id_.delete";
import * as csvRoute from "~/routes/financing.investors[.]csv";
import { getDb } from "~/server/db.server";
import { callRoute, type RouteCall, type RouteModule, routeModules } from "../support/api-routes";
import { accessTokenFor, createUser, sessionCookieFor, userRow } from "../support/factories";
import { useIntegration } from "../support/integration";

const routes = routeModules({
  list: listRoute,
  sent: sentRoute,
  signed: signedRoute,
  remove: deleteRoute,
});

const { smtp } = useIntegration({ mail: true });

function call(
  route: RouteModule,
  token: string | null,
  rest: Omit<RouteCall, "headers"> & { headers?: Record<string, string> },
) {
  const headers = { ...(rest.headers ?? {}), ...(token ? { Authorization: `Bearer ${token}` } : {}) };
  return callRoute(route, { ...rest, headers });
}

async function snapshotUsers() {
  return getDb().selectFrom("users").selectAll().orderBy("id").execute();
}

describe("the NDA flags and their invariant", () => {
  it("signed=Yes sets sent=Yes, e-mails the investor once, and is audited", async () => {
    const admin = await createUser({ named: true, role: "administrator" });
    const investor = await createUser({ named: true, fullName: "Jane Roe" });
    const result = await setNdaSigned({
      actor: admin,
      email: investor.email.toUpperCase(),
      state: true,
      ip: "10.0.0.9",
    });
    expect(result.ok).toBe(true);
    const row = await userRow(investor.id);
    expect(row).toMatchObject({ is_nda_sent: 1, is_nda_signed: 1 });

    const mail = await smtp.waitFor((m) => m.to.includes(investor.email));
    expect(mail.subject).toBe("Your investor materials are open");
    expect(mail.text).toContain("http://localhost:3000/financing/materials");
    expect(mail.text).toContain("Dear Jane Roe");

    // The change, then (once it is stored) the e-mail that told the investor.
    const { events } = await listAuditEvents({ limit: 5 });
    expect(events.slice(0, 2).map((event) => event.action)).toEqual([
      "investor.materials_mailed",
      "nda.signed.changed",
    ]);
    expect(events[1]).toMatchObject({
      actorEmail: admin.email,
      targetEmail: investor.email,
      targetId: investor.id,
      ip: "10.0.0.9",
    });
    expect(JSON.parse(events[1].details!)).toEqual({ state: true, isNDASent: true, isNDASigned: true });
    expect(events[0]).toMatchObject({ actorEmail: admin.email, targetId: investor.id, ip: "10.0.0.9" });
    expect(JSON.parse(events[0].details!)).toEqual({ mailed: true });

    // Setting it again does not e-mail again.
    const before = smtp.messages.filter((m) => m.to.includes(investor.email)).length;
    await setNdaSigned({ actor: admin, email: investor.email, state: true });
    expect(smtp.messages.filter((m) => m.to.includes(investor.email)).length).toBe(before);
  });

  it("signed=Yes from several administrators at once e-mails the investor once", async () => {
    const admins = await Promise.all([0, 1, 2].map(() => createUser({ named: true, role: "administrator" })));
    const investor = await createUser({ named: true });
    const results = await Promise.all(
      admins.map((actor) => setNdaSigned({ actor, email: investor.email, state: true })),
    );
    expect(results.every((result) => result.ok)).toBe(true);
    await smtp.waitFor((m) => m.to.includes(investor.email));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.messages.filter((m) => m.to.includes(investor.email))).toHaveLength(1);
  });

  it("two deletions of one investor at once delete and audit it once", async () => {
    const admin = await createUser({ named: true, role: "administrator" });
    const investor = await createUser({ named: true });
    const both = await Promise.all([
      deleteInvestor({ actor: admin, id: investor.id }),
      deleteInvestor({ actor: admin, id: investor.id }),
    ]);
    expect(both.filter((result) => result.ok)).toHaveLength(1);
    expect(both.find((result) => !result.ok)).toMatchObject({ status: 404 });
    const deletions = await getDb()
      .selectFrom("audit_events")
      .select("id")
      .where("action", "=", "investor.deleted")
      .where("target_id", "=", investor.id)
      .execute();
    expect(deletions).toHaveLength(1);
  });

  it("sent=No clears signed; signed=No keeps sent", async () => {
    const admin = await createUser({ named: true, role: "administrator" });
    const investor = await createUser({ named: true, signed: true });
    await setNdaSigned({ actor: admin, email: investor.email, state: false });
    expect(await userRow(investor.id)).toMatchObject({ is_nda_sent: 1, is_nda_signed: 0 });
    await setNdaSigned({ actor: admin, email: investor.email, state: true });
    await setNdaSent({ actor: admin, email: investor.email, state: false });
    expect(await userRow(investor.id)).toMatchObject({ is_nda_sent: 0, is_nda_signed: 0 });
    await setNdaSent({ actor: admin, email: investor.email, state: true });
    expect(await userRow(investor.id)).toMatchObject({ is_nda_sent: 1, is_nda_signed: 0 });
    const { events } = await listAuditEvents({ limit: 1 });
    expect(events[0]).toMatchObject({ action: "nda.sent.changed", actorEmail: admin.email, targetId: investor.id });
  });

  it("refuses unknown addresses and administrators' addresses with 404", async () => {
    const admin = await createUser({ named: true, role: "administrator" });
    expect(await setNdaSent({ actor: admin, email: "nobody@example.com", state: true })).toMatchObject({
      ok: false,
      status: 404,
    });
    expect(await setNdaSigned({ actor: admin, email: admin.email, state: true })).toMatchObject({
      ok: false,
      status: 404,
    });
    expect(await userRow(admin.id)).toMatchObject({ is_nda_sent: 0, is_nda_signed: 0 });
  });
});

describe("deleting an investor", () => {
  it("removes the investor with sessions, tokens and pending links, and audits it", async () => {
    const admin = await createUser({ named: true, role: "administrator" });
    const investor = await createUser({ named: true });
    await issueApiTokens(investor.id);
    const at = Date.now();
    await getDb()
      .insertInto("sessions")
      .values({
        id_hash: randomUUID(),
        user_id: investor.id,
        created_at: at,
        last_seen_at: at,
        expires_at: at + 60_000,
      })
      .execute();
    await getDb()
      .insertInto("one_time_tokens")
      .values({
        token_hash: randomUUID(),
        user_id: investor.id,
        purpose: "reset",
        created_at: at,
        expires_at: at + 60_000,
        used_at: null,
      })
      .execute();

    expect(await deleteInvestor({ actor: admin, id: investor.id, ip: "10.0.0.1" })).toMatchObject({ ok: true });
    expect(await userRow(investor.id)).toBeUndefined();
    for (const table of ["sessions", "api_tokens", "one_time_tokens"] as const) {
      const rows = await getDb().selectFrom(table).select("user_id").where("user_id", "=", investor.id).execute();
      expect(rows, table).toEqual([]);
    }
    const { events } = await listAuditEvents({ limit: 1 });
    expect(events[0]).toMatchObject({
      action: "investor.deleted",
      actorEmail: admin.email,
      targetEmail: investor.email,
    });
  });

  it("refuses administrators (403) and unknown ids (404)", async () => {
    const admin = await createUser({ named: true, role: "administrator" });
    const other = await createUser({ named: true, role: "administrator" });
    expect(await deleteInvestor({ actor: admin, id: other.id })).toMatchObject({ ok: false, status: 403 });
    expect(await deleteInvestor({ actor: admin, id: randomUUID() })).toMatchObject({ ok: false, status: 404 });
    expect(await userRow(other.id)).toBeDefined();
  });
});

describe("the investor table at a few hundred rows", () => {
  let tag: string;
  beforeAll(async () => {
    tag = `t${randomUUID().slice(0, 6)}`;
    for (let i = 0; i < 260; i++) {
      await createUser({
        named: true,
        email: `${tag}.${String(i).padStart(3, "0")}@example.com`,
        fullName: `${tag} Investor ${String(259 - i).padStart(3, "0")}`,
        sent: i % 3 === 1,
        signed: i % 3 === 2,
      });
    }
    await createUser({
      named: true,
      email: `${tag}-admin@example.com`,
      role: "administrator",
      fullName: `${tag} Admin`,
    });
    await createUser({ named: true, email: "percent@example.com", fullName: "100% Literal_Name" });
  });

  const table = (query: string) => loadInvestorTable(new URL(`http://localhost/financing?${query}`));

  it("pages 50 at a time with the total, investors only", async () => {
    const first = await table(`q=${tag}`);
    expect(first.total).toBe(260);
    expect(first.pageCount).toBe(6);
    expect(first.rows).toHaveLength(50);
    expect(first.rows.some((row) => row.email.includes("admin"))).toBe(false);
    const last = await table(`q=${tag}&page=6`);
    expect(last.rows).toHaveLength(10);
    expect(last.state.page).toBe(6);
    const beyond = await table(`q=${tag}&page=99`);
    expect(beyond.state.page).toBe(6);
  });

  it("searches name or e-mail ignoring case and punctuation, with % and _ never wildcards", async () => {
    // Each word anywhere in the name or the address: "007" is in one investor's address and another's name.
    expect((await table(`q=${tag.toUpperCase()}.007`)).rows.map((r) => r.email)).toEqual([
      `${tag}.252@example.com`,
      `${tag}.007@example.com`,
    ]);
    expect((await table(`q=252+INVESTOR,+${tag}`)).rows.map((r) => r.email)).toEqual([
      `${tag}.252@example.com`,
      `${tag}.007@example.com`,
    ]);
    expect((await table("q=100%25+literal_name")).rows.map((r) => r.email)).toEqual(["percent@example.com"]);
    // Punctuation alone folds to no word at all: the whole table.
    expect((await table("q=%25_")).total).toBe((await table("")).total);
  });

  it("filters by NDA state", async () => {
    expect((await table(`q=${tag}&nda=not-sent`)).total).toBe(87);
    const sent = await table(`q=${tag}&nda=sent`);
    expect(sent.total).toBe(87);
    expect(sent.rows.every((r) => r.isNDASent && !r.isNDASigned)).toBe(true);
    const signed = await table(`q=${tag}&nda=signed`);
    expect(signed.total).toBe(86);
    expect(signed.rows.every((r) => r.isNDASigned)).toBe(true);
  });

  it("sorts by name, e-mail and registration both ways, and keeps the state in returnTo", async () => {
    const byNameAsc = await table(`q=${tag}&sort=name&dir=asc`);
    expect(byNameAsc.rows[0].fullName).toBe(`${tag} Investor 000`);
    const byEmailDesc = await table(`q=${tag}&sort=email&dir=desc`);
    expect(byEmailDesc.rows[0].email).toBe(`${tag}.259@example.com`);
    const newest = await table(`q=${tag}`);
    expect(newest.rows[0].email).toBe(`${tag}.259@example.com`);
    const oldest = await table(`q=${tag}&sort=registered&dir=asc&page=2`);
    expect(oldest.rows[0].email).toBe(`${tag}.050@example.com`);
    expect(oldest.returnTo).toBe(`/financing?q=${tag}&sort=registered&dir=asc&page=2`);
    const bogus = await table(`q=${tag}&sort=password_hash&dir=sideways&page=-3`);
    expect(bogus.state).toMatchObject({ sort: "registered", dir: "desc", page: 1 });
  });

  it("gives every page exactly its slice of the sorted selection, the pages read from the far end too", async () => {
    for (const filter of [`q=${tag}`, `q=${tag}&nda=signed`, "nda=not-sent", ""]) {
      for (const sort of ["registered", "name", "email"]) {
        for (const dir of ["asc", "desc"]) {
          const query = `${filter}&sort=${sort}&dir=${dir}`;
          const all = (await investorsForExport(new URL(`http://localhost/financing.csv?${query}`))).map((r) => r.id);
          const { pageCount, total } = await table(query);
          expect(total, query).toBe(all.length);
          for (let page = 1; page <= pageCount; page++) {
            const { rows } = await table(`${query}&page=${page}`);
            expect(
              rows.map((r) => r.id),
              `${query}&page=${page}`,
            ).toEqual(all.slice((page - 1) * 50, page * 50));
          }
        }
      }
    }
  });

  it("counts without a search from the kept per-state counts, which match the rows", async () => {
    const rows = (nda: string) =>
      getDb()
        .selectFrom("users")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("role", "=", "investor")
        .$if(nda === "not-sent", (q) => q.where("is_nda_sent", "=", 0))
        .$if(nda === "sent", (q) => q.where("is_nda_sent", "=", 1).where("is_nda_signed", "=", 0))
        .$if(nda === "signed", (q) => q.where("is_nda_signed", "=", 1))
        .executeTakeFirstOrThrow();
    for (const nda of ["all", "not-sent", "sent", "signed"]) {
      expect((await table(`nda=${nda}`)).total, nda).toBe(Number((await rows(nda)).n));
    }
  });

  it("exports the whole selection as CSV, formula-safe", async () => {
    const rows = await investorsForExport(
      new URL(`http://localhost/financing.csv?q=${tag}&nda=signed&sort=email&dir=asc`),
    );
    expect(rows).toHaveLength(86);
    const csv = investorsCsv(rows);
    // A byte order mark first, so that Excel reads the names as UTF-8.
    expect(csv.startsWith("\uFEFF")).toBe(true);
    const lines = csv.slice(1).trimEnd().split("\r\n");
    expect(lines[0]).toBe('"Full name","E-mail","Address","Registration time (UTC)","NDA sent","NDA completed"');
    expect(lines).toHaveLength(87);
    expect(lines[1]).toContain(`"${tag}.002@example.com"`);
    // Registration times in ISO 8601, UTC: the very value the API gives.
    expect(lines[1]).toContain(`"${rows[0].createdAt}"`);
    expect(rows[0].createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(lines[1]).toMatch(/"Yes","Yes"$/);
  });

  it("lists investors for the API: all without limit, a page with it", async () => {
    const listInvestors = async (page?: { limit?: number; offset?: number }) =>
      (JSON.parse((await investorsJsonBytes(page)).toString("utf8")) as { users: PublicUser[] }).users;
    const all = await listInvestors();
    expect(all.length).toBeGreaterThanOrEqual(261);
    expect(all.every((u) => u.role.name === "investor")).toBe(true);
    const page = await listInvestors({ limit: 10, offset: 5 });
    expect(page.map((u) => u.id)).toEqual(all.slice(5, 15).map((u) => u.id));
    // An offset alone: everyone after it (each engine says "no limit" its own way).
    const rest = await listInvestors({ offset: 250 });
    expect(rest.map((u) => u.id)).toEqual(all.slice(250).map((u) => u.id));
  });
});

describe("the counts per NDA state", () => {
  async function countsMatchRows() {
    const kept = await getDb().selectFrom("investor_counts").selectAll().execute();
    const counted = await getDb()
      .selectFrom("users")
      .select(["is_nda_sent", "is_nda_signed", (eb) => eb.fn.countAll<number>().as("n")])
      .where("role", "=", "investor")
      .groupBy(["is_nda_sent", "is_nda_signed"])
      .execute();
    for (const { is_nda_sent, is_nda_signed, n } of kept) {
      const row = counted.find((c) => c.is_nda_sent === is_nda_sent && c.is_nda_signed === is_nda_signed);
      expect(n, `sent=${is_nda_sent} signed=${is_nda_signed}`).toBe(Number(row?.n ?? 0));
    }
  }

  it("follow every write to the users: new, flagged, promoted, deleted", async () => {
    const admin = await createUser({ named: true, role: "administrator" });
    const actor = { id: admin.id, email: admin.email };
    const [a, b, c] = [
      await createUser({ named: true }),
      await createUser({ named: true, sent: true }),
      await createUser({ named: true, signed: true }),
    ];
    await countsMatchRows();
    await setNdaSigned({ actor, email: a.email, state: true });
    await setNdaSent({ actor, email: c.email, state: false });
    await countsMatchRows();
    await getDb().updateTable("users").set({ role: "administrator" }).where("id", "=", b.id).execute();
    await countsMatchRows();
    await getDb().updateTable("users").set({ role: "investor" }).where("id", "=", b.id).execute();
    expect((await deleteInvestor({ actor, id: a.id })).ok).toBe(true);
    await getDb().deleteFrom("users").where("id", "=", c.id).execute();
    await countsMatchRows();
    await getDb().updateTable("users").set({ full_name: "Renamed" }).where("id", "=", b.id).execute();
    await countsMatchRows();
  });

  it("follow changes made at once in opposite directions, none waiting on another for ever", async () => {
    const unsent = await Promise.all(Array.from({ length: 20 }, () => createUser({ named: true })));
    const sent = await Promise.all(Array.from({ length: 20 }, () => createUser({ named: true, sent: true })));
    const flip = (id: string, to: number) =>
      getDb().updateTable("users").set({ is_nda_sent: to }).where("id", "=", id).execute();
    // Each pair moves one investor from (0,0) to (1,0) and another back: on PostgreSQL, where several
    // connections write at once, the counts' rows were once locked in opposite orders (a deadlock).
    await Promise.all(unsent.flatMap((user, i) => [flip(user.id, 1), flip(sent[i].id, 0)]));
    await countsMatchRows();
  });
});

describe("a search's total", () => {
  const searchTotal = async (query: string) =>
    (await loadInvestorTable(new URL(`http://localhost/financing?${query}`))).total;
  const matchingRows = async (text: string, nda?: "signed") => {
    let query = getDb()
      .selectFrom("users")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("role", "=", "investor")
      .where("search_text", "like", `%${text}%`);
    if (nda) query = query.where("is_nda_signed", "=", 1);
    return Number((await query.executeTakeFirstOrThrow()).n);
  };

  it("is kept only while no write a search can see has happened, whoever makes it", async () => {
    const admin = await createUser({ named: true, role: "administrator" });
    const actor = { id: admin.id, email: admin.email };
    const word = `quokka${randomUUID().slice(0, 6)}`;
    const [a, b] = [
      await createUser({ named: true, fullName: `${word} One` }),
      await createUser({ named: true, email: `${word}@example.com` }),
    ];
    const expectTotals = async () => {
      expect(await searchTotal(`q=${word}`)).toBe(await matchingRows(word));
      expect(await searchTotal(`q=${word}&nda=signed`)).toBe(await matchingRows(word, "signed"));
    };
    await expectTotals();

    const c = await createUser({ named: true, fullName: `${word} Three` });
    await expectTotals();
    await setNdaSigned({ actor, email: c.email, state: true });
    await expectTotals();
    // Written as every writer of a name or address writes it: with its search_text.
    await getDb()
      .updateTable("users")
      .set({ full_name: "Someone Else", search_text: searchTextFor({ fullName: "Someone Else", email: a.email }) })
      .where("id", "=", a.id)
      .execute();
    await expectTotals();
    await getDb()
      .updateTable("users")
      .set({
        email: `other.${word}@example.com`,
        search_text: searchTextFor({ fullName: "Someone Else", email: `other.${word}@example.com` }),
      })
      .where("id", "=", a.id)
      .execute();
    await expectTotals();
    await getDb().updateTable("users").set({ role: "administrator" }).where("id", "=", b.id).execute();
    await expectTotals();
    expect((await deleteInvestor({ actor, id: c.id })).ok).toBe(true);
    await expectTotals();
    expect(await searchTotal(`q=${word}`)).toBe(1);
  });

  it("does not move for writes a search cannot see", async () => {
    const { n: before } = await getDb().selectFrom("users_version").select("n").executeTakeFirstOrThrow();
    const investor = await createUser({ named: true });
    const { n: afterInsert } = await getDb().selectFrom("users_version").select("n").executeTakeFirstOrThrow();
    expect(afterInsert).toBe(before + 1);
    await getDb()
      .updateTable("users")
      .set({ updated_at: Date.now(), address: "2 Side Street" })
      .where("id", "=", investor.id)
      .execute();
    const { n: afterAddressChange } = await getDb().selectFrom("users_version").select("n").executeTakeFirstOrThrow();
    expect(afterAddressChange).toBe(afterInsert);
  });
});

describe("the investor list built by SQLite", () => {
  it("is, row for row, what toPublicUser makes of the same investors, oldest first", async () => {
    // Odd milliseconds and every NDA state, so the timestamp and the flags are really compared.
    for (const [i, nda] of [{}, { sent: true }, { signed: true }].entries()) {
      await createUser({
        named: true,
        ...nda,
        createdAt: Date.UTC(2026, 4, 7, 8, 9, 10) + 123 + i * 7_777,
        fullName: `Zoë "Q" ${i}`,
      });
    }
    const rows = await getDb()
      .selectFrom("users")
      .selectAll()
      .where("role", "=", "investor")
      .orderBy("created_at")
      .orderBy("id")
      .execute();
    expect(JSON.parse((await investorsJsonBytes()).toString("utf8")).users).toEqual(rows.map(toPublicUser));
  });
});

describe("CSV cells and return paths", () => {
  it("neutralises formulas and quotes", () => {
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvCell("+1")).toBe(`"'+1"`);
    expect(csvCell("-1")).toBe(`"'-1"`);
    expect(csvCell("@SUM(A1)")).toBe(`"'@SUM(A1)"`);
    expect(csvCell("Plain, text")).toBe(`"Plain, text"`);
    // The first visible character decides: invisible marks or spaces before it do not hide a formula.
    expect(csvCell("\u200B=HYPERLINK(1)")).toBe(`"'\u200B=HYPERLINK(1)"`);
    expect(csvCell("\u202E\u2066@SUM(A1)")).toBe(`"'\u202E\u2066@SUM(A1)"`);
    expect(csvCell(" \uFEFF+1")).toBe(`"' \uFEFF+1"`);
    expect(csvCell("Ada-Lovelace")).toBe(`"Ada-Lovelace"`);
  });

  it("formats registration time in US English, UTC", () => {
    expect(formatRegistrationTime("2025-03-04T17:05:06.000Z")).toBe("March 4, 2025 at 5:05:06 PM UTC");
  });

  it("only returns to same-site /financing paths", () => {
    expect(safeReturnTo("/financing?q=a&page=2")).toBe("/financing?q=a&page=2");
    expect(safeReturnTo("//evil.example/financing")).toBe("/financing");
    expect(safeReturnTo("https://evil.example/financing")).toBe("/financing");
    expect(safeReturnTo("/financingevil")).toBe("/financing");
    expect(safeReturnTo("/financing/../contact")).toBe("/financing");
    expect(safeReturnTo("/\\evil.example")).toBe("/financing");
    expect(safeReturnTo(42)).toBe("/financing");
  });
});

describe("the administrator API", () => {
  it("GET get_investors: { users } in the public shape; limit/offset validated", async () => {
    const admin = await createUser({ named: true, role: "administrator" });
    const investor = await createUser({ fullName: "Api Listed", address: "1 API Way" });
    const token = await accessTokenFor(admin.id);
    const response = await call(routes.list, token, { path: "/api/user/get_investors" });
    expect(response.status).toBe(200);
    const { users } = (await response.json()) as { users: Record<string, unknown>[] };
    const listed = users.find((u) => u.id === investor.id);
    expect(listed).toEqual({
      id: investor.id,
      email: investor.email,
      fullName: "Api Listed",
      address: "1 API Way",
      isNDASent: false,
      isNDASigned: false,
      role: { name: "investor" },
      createdAt: new Date(investor.created_at).toISOString(),
    });
    expect(users.some((u) => u.id === admin.id)).toBe(false);
    expect(JSON.stringify(users)).not.toContain("password");

    const page = await call(routes.list, token, { path: "/api/user/get_investors?limit=2&offset=1" });
    expect(((await page.json()) as { users: unknown[] }).users).toHaveLength(2);
    for (const bad of [
      "limit=0",
      "limit=-1",
      "limit=abc",
      "limit=1.5",
      "limit=100000",
      "offset=-2",
      "offset=x",
      "limit=1e3",
    ]) {
      const answer = await call(routes.list, token, { path: `/api/user/get_investors?${bad}` });
      expect(answer.status, bad).toBe(400);
      expect(((await answer.json()) as { message: string }).message).toBeTruthy();
    }
  });

  it("get_investors without parameters answers as before: every investor, oldest first, and no nextCursor", async () => {
    const admin = await createUser({ named: true, role: "administrator" });
    const token = await accessTokenFor(admin.id);
    const body = (await (await call(routes.list, token, { path: "/api/user/get_investors" })).json()) as object;
    expect(Object.keys(body)).toEqual(["users"]);
    expect(body).toEqual({ users: JSON.parse((await investorsJsonBytes()).toString("utf8")).users });
  });

  it("get_investors with limit and cursor walks every investor once, while investors register and leave", async () => {
    const admin = await createUser({ named: true, role: "administrator" });
    const token = await accessTokenFor(admin.id);
    for (let i = 0; i < 12; i++) await createUser({ named: true });
    type Page = { users: PublicUser[]; nextCursor?: string };
    const page = async (query: string) => {
      const response = await call(routes.list, token, { path: `/api/user/get_investors?${query}` });
      expect(response.status).toBe(200);
      return (await response.json()) as Page;
    };
    const before = (await page("")).users.map((user) => user.id);

    const walked: PublicUser[] = [];
    const added: string[] = [];
    let deletedWalked = "";
    let deletedAhead = "";
    let current = await page("limit=7");
    for (let turn = 1; ; turn++) {
      expect(current.users.length).toBeLessThanOrEqual(7);
      walked.push(...current.users);
      if (turn === 1) {
        for (let i = 0; i < 3; i++) added.push((await createUser({ named: true })).id);
        // One already answered leaves (an offset would now skip someone), and one not yet reached.
        deletedWalked = walked[2].id;
        deletedAhead = before[before.length - 3];
        await getDb().deleteFrom("users").where("id", "in", [deletedWalked, deletedAhead]).execute();
      }
      if (!current.nextCursor) break;
      current = await page(`limit=7&cursor=${encodeURIComponent(current.nextCursor)}`);
    }

    const ids = walked.map((user) => user.id);
    expect(new Set(ids).size).toBe(ids.length);
    const expected = [...before, ...added].filter((id) => id !== deletedAhead);
    expect([...ids].sort()).toEqual([...expected].sort());
    expect(ids).toContain(deletedWalked);
    const order = walked.map((user) => `${user.createdAt} ${user.id}`);
    expect(order).toEqual([...order].sort());
  });

  it("get_investors refuses a bad limit, a cursor it did not issue, and a cursor with an offset: 400, saying which", async () => {
    const admin = await createUser({ named: true, role: "administrator" });
    const token = await accessTokenFor(admin.id);
    const first = (await (await call(routes.list, token, { path: "/api/user/get_investors?limit=1" })).json()) as {
      nextCursor: string;
    };
    expect(first.nextCursor).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/);
    const [position, mac] = first.nextCursor.split(".");
    const stand = Buffer.from(position, "base64url").toString();
    // Made up: a real position without the server's signature, another investor's position under this
    // one's signature, one character of the signature changed, and one signed with another secret.
    const madeUp = [
      position,
      `${Buffer.from(stand.replace(/\.(.)/, (_m, c: string) => `.${c === "a" ? "b" : "a"}`)).toString("base64url")}.${mac}`,
      `${position}.${mac.slice(0, -1)}${mac.endsWith("A") ? "B" : "A"}`,
      `${position}.${createHmac("sha256", "another secret").update(`get_investors cursor\n${position}`).digest().subarray(0, 16).toString("base64url")}`,
    ];
    const cases: [string, string, string][] = [
      ...madeUp.map((cursor): [string, string, string] => [
        `cursor=${cursor}`,
        "cursor",
        "'cursor' is not valid: send the nextCursor of the page before, as it came.",
      ]),
      ["limit=501", "limit", "'limit' must be a whole number from 1 to 500."],
      ["limit=0", "limit", "'limit' must be a whole number from 1 to 500."],
      ["cursor=", "cursor", "'cursor' is not valid: send the nextCursor of the page before, as it came."],
      ["cursor=not-a-cursor", "cursor", "'cursor' is not valid: send the nextCursor of the page before, as it came."],
      [
        `cursor=${Buffer.from("1.x'; drop table users").toString("base64url")}`,
        "cursor",
        "'cursor' is not valid: send the nextCursor of the page before, as it came.",
      ],
      [`cursor=${first.nextCursor}&offset=3`, "cursor", "Send 'cursor' or 'offset', not both."],
    ];
    for (const [query, field, message] of cases) {
      const answer = await call(routes.list, token, { path: `/api/user/get_investors?${query}` });
      expect(answer.status, query).toBe(400);
      expect(await answer.json(), query).toEqual({ message, issues: { [field]: [message] } });
    }
  });

  it("401 with WWW-Authenticate: Bearer without or with a bad token", async () => {
    for (const [route, method] of [
      [routes.list, "GET"],
      [routes.sent, "POST"],
      [routes.signed, "POST"],
      [routes.remove, "POST"],
    ] as const) {
      for (const token of [null, "not-a-token"]) {
        const response = await call(route, token, {
          method,
          path: "/api/user/x",
          json: method === "POST" ? {} : undefined,
        });
        expect(response.status).toBe(401);
        expect(response.headers.get("WWW-Authenticate")).toMatch(/^Bearer/);
      }
    }
  });

  it("403 for an investor on every administrator call, and nothing changes", async () => {
    const investor = await createUser({ named: true });
    const victim = await createUser({ named: true });
    const token = await accessTokenFor(investor.id);
    const before = await snapshotUsers();
    const answers = [
      await call(routes.list, token, { path: "/api/user/get_investors" }),
      await call(routes.sent, token, {
        path: "/api/user/update_nda_sent",
        json: { email: investor.email, state: true },
      }),
      await call(routes.signed, token, {
        path: "/api/user/update_nda_signed",
        json: { email: investor.email, state: true },
      }),
      await call(routes.remove, token, { path: "/api/user/delete_investor", json: { id: victim.id } }),
    ];
    expect(answers.map((a) => a.status)).toEqual([403, 403, 403, 403]);
    expect(await snapshotUsers()).toEqual(before);
  });

  it("update_nda_signed / update_nda_sent: 201, the invariant, 404 for unknown e-mail", async () => {
    const admin = await createUser({ named: true, role: "administrator" });
    const investor = await createUser({ named: true });
    const token = await accessTokenFor(admin.id);
    const signed = await call(routes.signed, token, {
      path: "/api/user/update_nda_signed",
      json: { email: investor.email, state: true },
      ip: "10.9.9.9",
    });
    expect(signed.status).toBe(201);
    expect(await userRow(investor.id)).toMatchObject({ is_nda_sent: 1, is_nda_signed: 1 });
    await smtp.mailTo(investor.email, /materials are open/);

    const sent = await call(routes.sent, token, {
      path: "/api/user/update_nda_sent",
      json: { email: investor.email, state: false },
    });
    expect(sent.status).toBe(201);
    expect(await userRow(investor.id)).toMatchObject({ is_nda_sent: 0, is_nda_signed: 0 });

    const { events } = await listAuditEvents({ limit: 3 });
    expect(events.map((e) => e.action)).toEqual([
      "nda.sent.changed",
      "investor.materials_mailed",
      "nda.signed.changed",
    ]);
    expect(events[2]).toMatchObject({ actorEmail: admin.email, targetId: investor.id, ip: "10.9.9.9" });

    for (const route of [routes.sent, routes.signed]) {
      const unknown = await call(route, token, {
        path: "/api/user/x",
        json: { email: "ghost@example.com", state: true },
      });
      expect(unknown.status).toBe(404);
    }
  });

  it("refuses the bad-input catalogue with a clear 4xx and changes nothing", async () => {
    const admin = await createUser({ named: true, role: "administrator" });
    const investor = await createUser({ named: true });
    const token = await accessTokenFor(admin.id);
    const before = await snapshotUsers();
    const raw = (body: string, contentType = "application/json") => ({
      path: "/api/user/update_nda_signed",
      method: "POST",
      body,
      headers: { "Content-Type": contentType },
    });
    const cases: [Omit<RouteCall, "headers"> & { headers?: Record<string, string> }, number][] = [
      [{ path: "/api/user/update_nda_signed", json: { email: investor.email, state: "true" } }, 400],
      [{ path: "/api/user/update_nda_signed", json: { email: investor.email, state: 1 } }, 400],
      [{ path: "/api/user/update_nda_signed", json: { email: investor.email } }, 400],
      [{ path: "/api/user/update_nda_signed", json: { email: "not-an-email", state: true } }, 400],
      [{ path: "/api/user/update_nda_signed", json: { email: ["a@example.com"], state: true } }, 400],
      [{ path: "/api/user/update_nda_signed", json: [investor.email, true] }, 400],
      [raw("{not json"), 400],
      [raw(`{"email":"${investor.email}","state":true,"state":false}`), 400],
      [raw(`email=${investor.email}&state=true`, "application/x-www-form-urlencoded"), 415],
      [raw(JSON.stringify({ email: investor.email, state: true, pad: "x".repeat(17_000) })), 413],
    ];
    for (const [request, status] of cases) {
      const response = await call(routes.signed, token, request);
      expect(response.status, JSON.stringify(request).slice(0, 120)).toBe(status);
      expect(((await response.json()) as { message: string }).message).toBeTruthy();
    }
    const deleteCases = [{}, { id: 42 }, { id: "" }, { id: "x".repeat(65) }];
    for (const json of deleteCases) {
      const response = await call(routes.remove, token, { path: "/api/user/delete_investor", json });
      expect(response.status, JSON.stringify(json)).toBe(400);
    }
    const wrongMethod = await call(routes.signed, token, { method: "GET", path: "/api/user/update_nda_signed" });
    expect(wrongMethod.status).toBe(405);
    expect(await snapshotUsers()).toEqual(before);
  });

  it("mass assignment: extra fields cannot set a role or verification", async () => {
    const admin = await createUser({ named: true, role: "administrator" });
    const investor = await createUser({ named: true });
    const token = await accessTokenFor(admin.id);
    const response = await call(routes.sent, token, {
      path: "/api/user/update_nda_sent",
      json: { email: investor.email, state: true, role: "administrator", email_verified_at: null, is_nda_signed: 1 },
    });
    expect(response.status).toBe(201);
    expect(await userRow(investor.id)).toMatchObject({
      role: "investor",
      is_nda_sent: 1,
      is_nda_signed: 0,
      email_verified_at: investor.email_verified_at,
    });
  });

  it("delete_investor: 201, 404 for an unknown id, administrators cannot be deleted", async () => {
    const admin = await createUser({ named: true, role: "administrator" });
    const otherAdmin = await createUser({ named: true, role: "administrator" });
    const investor = await createUser({ named: true });
    const investorToken = await accessTokenFor(investor.id);
    const token = await accessTokenFor(admin.id);

    const refused = await call(routes.remove, token, {
      path: "/api/user/delete_investor",
      json: { id: otherAdmin.id },
    });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { message: string }).message).toBe("Administrators cannot be deleted.");
    const self = await call(routes.remove, token, { path: "/api/user/delete_investor", json: { id: admin.id } });
    expect(self.status).toBe(403);
    expect(await userRow(otherAdmin.id)).toBeDefined();

    const unknown = await call(routes.remove, token, { path: "/api/user/delete_investor", json: { id: randomUUID() } });
    expect(unknown.status).toBe(404);

    const deleted = await call(routes.remove, token, { path: "/api/user/delete_investor", json: { id: investor.id } });
    expect(deleted.status).toBe(201);
    expect(await userRow(investor.id)).toBeUndefined();
    // The deleted investor's token no longer works.
    const after = await call(routes.list, investorToken, { path: "/api/user/get_investors" });
    expect(after.status).toBe(401);
    const { events } = await listAuditEvents({ limit: 1 });
    expect(events[0]).toMatchObject({ action: "investor.deleted", actorEmail: admin.email, targetId: investor.id });
  });
});

describe("the audit listing", () => {
  it("is newest first and paginated with a total", async () => {
    const { events, total } = await listAuditEvents({ limit: 3 });
    expect(events).toHaveLength(3);
    expect(total).toBeGreaterThan(3);
    const times = events.map((e) => e.at);
    expect([...times].sort().reverse()).toEqual(times);
    const next = await listAuditEvents({ limit: 3, offset: 3 });
    expect(next.events[0].id).not.toBe(events[0].id);
  });
});

describe("the administrator pages and their guards", () => {
  const pages = {
    flag: flagPage as unknown as RouteModule,
    remove: deletePage as unknown as RouteModule,
    csv: csvRoute as unknown as RouteModule,
    audit: auditPage as unknown as RouteModule,
  };

  function form(cookie: string, path: string, params: string, fields: Record<string, string>) {
    return {
      method: "POST",
      path,
      params: { id: params },
      headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields).toString(),
    };
  }

  it("sends visitors to the login page and answers investors 403, changing nothing", async () => {
    const investor = await createUser({ named: true });
    const victim = await createUser({ named: true });
    const cookie = await sessionCookieFor(investor.id);
    const before = await snapshotUsers();
    const anonymous = await callRoute(pages.audit, { path: "/financing/audit" });
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("Location")).toBe("/financing/login");
    const answers = [
      await callRoute(pages.audit, { path: "/financing/audit", headers: { Cookie: cookie } }),
      await callRoute(pages.csv, { path: "/financing/investors.csv", headers: { Cookie: cookie } }),
      await callRoute(pages.remove, {
        path: `/financing/investors/${victim.id}/delete`,
        params: { id: victim.id },
        headers: { Cookie: cookie },
      }),
      await callRoute(
        pages.remove,
        form(cookie, `/financing/investors/${victim.id}/delete`, victim.id, { returnTo: "/financing" }),
      ),
      await callRoute(
        pages.flag,
        form(cookie, `/financing/investors/${investor.id}`, investor.id, { intent: "nda-signed", state: "yes" }),
      ),
    ];
    expect(answers.map((a) => a.status)).toEqual([403, 403, 403, 403, 403]);
    expect(await snapshotUsers()).toEqual(before);
  });

  it("sets a flag and returns to a same-site returnTo only", async () => {
    const admin = await createUser({ named: true, role: "administrator" });
    const investor = await createUser({ named: true });
    const cookie = await sessionCookieFor(admin.id);
    const kept = await callRoute(
      pages.flag,
      form(cookie, `/financing/investors/${investor.id}`, investor.id, {
        intent: "nda-signed",
        state: "yes",
        returnTo: "/financing?q=x&page=2",
      }),
    );
    expect(kept.status).toBe(302);
    expect(kept.headers.get("Location")).toBe("/financing?q=x&page=2");
    expect(await userRow(investor.id)).toMatchObject({ is_nda_sent: 1, is_nda_signed: 1 });

    const offsite = await callRoute(
      pages.flag,
      form(cookie, `/financing/investors/${investor.id}`, investor.id, {
        intent: "nda-sent",
        state: "no",
        returnTo: "https://evil.example/financing",
      }),
    );
    expect(offsite.headers.get("Location")).toBe("/financing");
    const bare = await callRoute(pages.flag, {
      path: `/financing/investors/${investor.id}`,
      params: { id: investor.id },
      headers: { Cookie: cookie },
    });
    // A visit is the investor's page now (tests/integration/investor-page.test.ts).
    expect(bare.status).toBe(200);
    expect(await userRow(investor.id)).toMatchObject({ is_nda_sent: 0, is_nda_signed: 0 });

    const before = await snapshotUsers();
    const badForms: Record<string, string>[] = [
      { intent: "role", state: "yes" },
      { intent: "nda-sent", state: "maybe" },
      {},
    ];
    for (const fields of badForms) {
      const bad = await callRoute(pages.flag, form(cookie, `/financing/investors/${investor.id}`, investor.id, fields));
      expect(bad.status).toBe(302);
      expect(bad.headers.get("Location")).toBe("/financing");
    }
    const unknown = await callRoute(
      pages.flag,
      form(cookie, "/financing/investors/x", randomUUID(), { intent: "nda-sent", state: "yes" }),
    );
    expect(unknown.status).toBe(302);
    expect(await snapshotUsers()).toEqual(before);
  });

  it("shows the confirmation page, deletes on POST, and refuses administrators", async () => {
    const admin = await createUser({ named: true, role: "administrator" });
    const other = await createUser({ named: true, role: "administrator" });
    const investor = await createUser({ named: true });
    const cookie = await sessionCookieFor(admin.id);
    const page = await callRoute(pages.remove, {
      path: `/financing/investors/${investor.id}/delete?returnTo=%2Ffinancing%3Fq%3Dabc`,
      params: { id: investor.id },
      headers: { Cookie: cookie },
    });
    expect(page.status).toBe(200);
    expect(await page.json()).toMatchObject({ investor: { email: investor.email }, returnTo: "/financing?q=abc" });
    const adminPage = await callRoute(pages.remove, {
      path: "/x",
      params: { id: other.id },
      headers: { Cookie: cookie },
    });
    expect(adminPage.status).toBe(404);

    const refused = await callRoute(pages.remove, form(cookie, "/x", other.id, { returnTo: "/financing" }));
    expect(refused.status).toBe(302);
    expect(await userRow(other.id)).toBeDefined();

    const deleted = await callRoute(pages.remove, form(cookie, "/x", investor.id, { returnTo: "/financing?q=abc" }));
    // Back on the table, at its heading: the form named no next row.
    expect(deleted.headers.get("Location")).toBe("/financing?q=abc#investor-table-heading");
    expect(await userRow(investor.id)).toBeUndefined();
  });

  it("exports CSV with download headers, formula-safe, and audits the export", async () => {
    const admin = await createUser({ named: true, role: "administrator" });
    await createUser({ fullName: "=cmd|' /C calc'!A0", email: "formula@example.com", address: "@SUM(1+1)" });
    const cookie = await sessionCookieFor(admin.id);
    const response = await callRoute(pages.csv, {
      path: "/financing/investors.csv?q=formula",
      headers: { Cookie: cookie },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toBe('attachment; filename="investors.csv"');
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    const bytes = Buffer.from(await response.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.subarray(3).toString("utf8").trimEnd().split("\r\n");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^"'=cmd\|' \/C calc'!A0","formula@example.com","'@SUM\(1\+1\)",/);
    const { events } = await listAuditEvents({ limit: 1 });
    expect(events[0]).toMatchObject({ action: "investors.exported", actorEmail: admin.email });

    // A HEAD request carries no copy away: the same headers, and nothing more recorded.
    const head = await callRoute(pages.csv, {
      method: "HEAD",
      path: "/financing/investors.csv?q=formula",
      headers: { Cookie: cookie },
    });
    expect(head.status).toBe(200);
    expect(head.headers.get("Content-Disposition")).toBe('attachment; filename="investors.csv"');
    expect(await head.text()).toBe("");
    const after = await listAuditEvents({ limit: 10 });
    expect(after.events.filter((event) => event.action === "investors.exported")).toHaveLength(1);
  });
});
