/**
 * The pipeline (docs/decisions/0037): each stage's count and conversion, the table filtered to a stage,
 * the standing indications by how the investor's qualification stands, the weeks, the CSV with its
 * guarded cells, and figures that follow every change they count.
 */
import { loadInvestorTable } from "~/models/investors/investor-table.server";
import * as pipelineApi from "~/routes/api.pipeline";
import * as pipelinePage from "~/routes/financing.pipeline";
import * as pipelineCsv from "~/routes/financing.pipeline[.]csv";
import { getDb } from "~/server/db.server";
import { callRoute, type RouteModule } from "../support/api-routes";
import { bearerHeaders, sessionHeaders, type InvestorState } from "../support/factories";
import { useIntegration } from "../support/integration";

const route = (module: unknown) => module as RouteModule;
const DAY = 86_400_000;
const NOW = Date.now();

const { investor, administrator } = useIntegration();
const investorAt = (state: InvestorState, createdAt?: number) => investor(state, createdAt ? { createdAt } : {});

async function indicate(userId: string, amount: number | null, at: number, note = "") {
  await getDb()
    .insertInto("interest_indications")
    .values({
      id: `i-${userId}-${at}`,
      user_id: userId,
      amount,
      low: null,
      high: null,
      note,
      withdrawn: amount === null ? 1 : 0,
      created_at: at,
    })
    .execute();
}

async function verify(userId: string, expiresAt: number) {
  await getDb()
    .insertInto("verifications")
    .values({
      id: `v-${userId}-${expiresAt}`,
      user_id: userId,
      method: "cpa_letter",
      verified_on: "2026-01-01",
      note: "",
      blob_id: null,
      file_name: null,
      recorded_by: null,
      expires_at: expiresAt,
      created_at: NOW - DAY,
    })
    .execute();
}

it("counts each stage, converts from the one before, totals the interest by verification, and exports it guarded", async () => {
  const monday = Date.UTC(2026, 10, 2); // a Monday
  await investorAt("registered", monday + DAY);
  await investorAt("verified", monday + DAY);
  await investorAt("named", monday + 8 * DAY);
  await investorAt("nda-sent", monday + 8 * DAY);
  const signedA = await investorAt("nda-signed", monday + 9 * DAY);
  const signedB = await investorAt("nda-signed", monday + 9 * DAY);
  const signedC = await investorAt("nda-signed", monday + 10 * DAY);
  const documentId = (await getDb().selectFrom("documents").select("id").executeTakeFirstOrThrow()).id;
  await getDb()
    .insertInto("document_readers")
    .values(
      [signedA, signedB].map((user) => ({
        document_id: documentId,
        user_id: user.id,
        opens: 1,
        first_opened_at: NOW,
        last_opened_at: NOW,
      })),
    )
    .execute();
  await verify(signedA.id, NOW + 30 * DAY);
  await verify(signedB.id, NOW - DAY);
  await indicate(signedA.id, 100_000, monday + 10 * DAY, '=HYPERLINK("http://evil")');
  await indicate(signedB.id, 50_000, monday + 10 * DAY);
  await indicate(signedC.id, 20_000, monday + 11 * DAY);
  await indicate(signedC.id, null, monday + 12 * DAY);

  const admin = await administrator();
  const answer = await callRoute(route(pipelineApi), { path: "/api/pipeline", headers: await bearerHeaders(admin.id) });
  expect(answer.status).toBe(200);
  const pipeline = await answer.json();
  expect(pipeline.stages.map((stage: { count: number }) => stage.count)).toEqual([7, 6, 5, 4, 3, 2, 1, 2]);
  expect(pipeline.stages[1].conversion).toBeCloseTo(6 / 7);
  expect(pipeline.stages[0].conversion).toBeNull();
  expect(pipeline.interest).toEqual({
    sum: 150_000,
    count: 2,
    byVerification: [
      { verification: "verified", sum: 100_000, count: 1 },
      { verification: "expired", sum: 50_000, count: 1 },
      { verification: "unverified", sum: 0, count: 0 },
    ],
  });
  expect(pipeline.weeks).toEqual([
    { week: "2026-11-02", signedUp: 2, verified: 1, indicated: 0 },
    { week: "2026-11-09", signedUp: 5, verified: 5, indicated: 3 },
  ]);

  // Each stage's click-through: the table holds exactly that stage's investors.
  const read = await loadInvestorTable(new URL("http://localhost/financing?stage=read"));
  expect(read.total).toBe(2);
  expect(read.rows.map((row) => row.email).sort()).toEqual([signedA.email, signedB.email].sort());
  const qualified = await loadInvestorTable(new URL("http://localhost/financing?stage=qualified"));
  expect(qualified.rows.map((row) => row.email)).toEqual([signedA.email]);

  // The page draws the funnel on the server, each bar a link to the filtered table.
  const page = await callRoute(route(pipelinePage), {
    path: "/financing/pipeline",
    headers: await sessionHeaders(admin.id),
  });
  expect(page.status).toBe(200);

  // The CSV: standing indications only, a formula neutralised.
  const csv = await callRoute(route(pipelineCsv), {
    path: "/financing/pipeline.csv",
    headers: await sessionHeaders(admin.id),
  });
  const text = await csv.text();
  expect(csv.headers.get("Content-Disposition")).toContain("indications-of-interest.csv");
  expect(text).toContain(`"'=HYPERLINK(""http://evil"")"`);
  expect(text).not.toContain(signedC.email);
  expect(text.trim().split("\r\n")).toHaveLength(3);
  const [exported] = await getDb()
    .selectFrom("audit_events")
    .selectAll()
    .where("action", "=", "interest.exported")
    .execute();
  expect(exported!.actor_email).toBe(admin.email);

  // A change it counts moves it: a new indication by the investor who withdrew.
  await indicate(signedC.id, 5_000, monday + 13 * DAY);
  const after = await (
    await callRoute(route(pipelineApi), { path: "/api/pipeline", headers: await bearerHeaders(admin.id) })
  ).json();
  expect(after.interest.sum).toBe(155_000);
  expect(after.stages.at(-1).count).toBe(3);
  // A change to a user (an address verified) moves it too.
  const unverified = await getDb()
    .selectFrom("users")
    .select("id")
    .where("email_verified_at", "is", null)
    .where("role", "=", "investor")
    .executeTakeFirstOrThrow();
  await getDb()
    .updateTable("users")
    .set({ email_verified_at: NOW, updated_at: NOW + 1 })
    .where("id", "=", unverified.id)
    .execute();
  const verifiedNow = await (
    await callRoute(route(pipelineApi), { path: "/api/pipeline", headers: await bearerHeaders(admin.id) })
  ).json();
  expect(verifiedNow.stages[1].count).toBe(7);
});

it("is the administrators': an investor's token and session are refused", async () => {
  const someone = await investorAt("nda-signed");
  expect(
    (await callRoute(route(pipelineApi), { path: "/api/pipeline", headers: await bearerHeaders(someone.id) })).status,
  ).toBe(403);
  expect(
    (await callRoute(route(pipelinePage), { path: "/financing/pipeline", headers: await sessionHeaders(someone.id) }))
      .status,
  ).toBe(403);
  expect(
    (
      await callRoute(route(pipelineCsv), {
        path: "/financing/pipeline.csv",
        headers: await sessionHeaders(someone.id),
      })
    ).status,
  ).toBe(403);
});
