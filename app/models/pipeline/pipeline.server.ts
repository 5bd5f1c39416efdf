/**
 * The raise as a pipeline (docs/decisions/0037): how many investors reached each stage, the conversion
 * from the stage before, the standing indications of interest (sum and count, by how the investor's
 * qualification stands), and the weeks of the raise. Counting means reading every investor, so the
 * figures are kept until something they count changes: a fingerprint of a few indexed reads (the users'
 * version and latest change, the latest verification and indication, the readers, the day) says when.
 */
import { sql } from "kysely";
import { now } from "~/server/clock.server";
import { getDb } from "~/server/db.server";
import { PIPELINE_STAGES, stageCondition, type PipelineStage } from "./pipeline-stages.server";

const DAY_MS = 86_400_000;
const WEEK_MS = 7 * DAY_MS;

export type VerificationStanding = "verified" | "expired" | "unverified";

export type Pipeline = {
  stages: { stage: PipelineStage; count: number; conversion: number | null }[];
  interest: {
    sum: number;
    count: number;
    byVerification: { verification: VerificationStanding; sum: number; count: number }[];
  };
  weeks: { week: string; signedUp: number; verified: number; indicated: number }[];
};

let kept: { fingerprint: string; pipeline: Pipeline } | null = null;

/** The pipeline as it stands: from memory while nothing it counts has changed. */
export async function readPipeline(): Promise<Pipeline> {
  const fingerprint = await pipelineFingerprint();
  if (kept?.fingerprint === fingerprint) return kept.pipeline;
  const pipeline = await countPipeline(now());
  kept = { fingerprint, pipeline };
  return pipeline;
}

/** For tests that change rows behind the fingerprint's back (none of the app's writes do). */
export function forgetPipelineForTests() {
  kept = null;
}

async function pipelineFingerprint(): Promise<string> {
  const row = await sql<Record<string, number | string | null>>`select
      (select n from users_version where only_row = 1) as version,
      (select max(updated_at) from users) as users_changed,
      (select max(created_at) from verifications) as verified,
      (select max(created_at) from interest_indications) as indicated,
      (select coalesce(sum(readers), 0) from document_reading) as readers`.execute(getDb());
  return `${JSON.stringify(row.rows[0])}:${Math.floor(now() / DAY_MS)}`;
}

async function countPipeline(at: number): Promise<Pipeline> {
  const db = getDb();
  const counted = await db
    .selectFrom("users")
    .select(
      PIPELINE_STAGES.map((stage) =>
        sql<number>`coalesce(sum(case when ${stageCondition(stage, at)} then 1 else 0 end), 0)`.as(stage),
      ),
    )
    .where("users.role", "=", "investor")
    .executeTakeFirstOrThrow();
  const counts = PIPELINE_STAGES.map((stage) => Number((counted as Record<string, unknown>)[stage]));
  const stages = PIPELINE_STAGES.map((stage, index) => ({
    stage,
    count: counts[index]!,
    conversion: index === 0 ? null : counts[index - 1]! === 0 ? 0 : counts[index]! / counts[index - 1]!,
  }));
  return { stages, interest: await interestTotals(at), weeks: await weeksOf() };
}

/** The standing (latest, not withdrawn) indications, by how each investor's latest verification stands. */
async function interestTotals(at: number): Promise<Pipeline["interest"]> {
  const rows = await sql<{ standing: VerificationStanding; total: number | string | null; n: number | string }>`
    select standing, sum(amount) as total, count(*) as n from (
      select i.amount,
        case
          when v.id is null then 'unverified'
          when v.expires_at > ${at} then 'verified'
          else 'expired'
        end as standing
      from interest_indications i
      join users on users.id = i.user_id and users.role = 'investor'
      left join verifications v on v.user_id = i.user_id and not exists (
        select 1 from verifications w where w.user_id = v.user_id
          and (w.created_at > v.created_at or (w.created_at = v.created_at and w.id > v.id)))
      where i.withdrawn = 0 and not exists (
        select 1 from interest_indications j where j.user_id = i.user_id
          and (j.created_at > i.created_at or (j.created_at = i.created_at and j.id > i.id)))
    ) standing_indications group by standing`.execute(getDb());
  const byVerification = (["verified", "expired", "unverified"] as const).map((verification) => {
    const row = rows.rows.find((each) => each.standing === verification);
    return { verification, sum: Number(row?.total ?? 0), count: Number(row?.n ?? 0) };
  });
  return {
    sum: byVerification.reduce((total, each) => total + each.sum, 0),
    count: byVerification.reduce((total, each) => total + each.count, 0),
    byVerification,
  };
}

/** Week by week (Mondays, UTC) of the raise: sign-ups, addresses verified, and first indications of interest. */
async function weeksOf(): Promise<Pipeline["weeks"]> {
  // 1970-01-01 was a Thursday: a week's number counts from the Monday before it.
  // Written into the SQL as integers: bound, SQLite would take them as reals and divide without flooring.
  const week = (column: string) => sql`((${sql.raw(column)} + ${sql.lit(3 * DAY_MS)}) / ${sql.lit(WEEK_MS)})`;
  const rows = await sql<{ kind: string; week: number | string; n: number | string }>`
    select 'signedUp' as kind, ${week("created_at")} as week, count(*) as n
      from users where role = 'investor' group by 2
    union all
    select 'verified', ${week("email_verified_at")}, count(*)
      from users where role = 'investor' and email_verified_at is not null group by 2
    union all
    select 'indicated', ${week("first_at")}, count(*) from (
      select min(i.created_at) as first_at from interest_indications i
        join users on users.id = i.user_id and users.role = 'investor' group by i.user_id
    ) firsts group by 2`.execute(getDb());
  const weeks = new Map<number, Pipeline["weeks"][number]>();
  for (const row of rows.rows) {
    const number = Number(row.week);
    const monday = new Date(number * WEEK_MS - 3 * DAY_MS).toISOString().slice(0, 10);
    const entry = weeks.get(number) ?? { week: monday, signedUp: 0, verified: 0, indicated: 0 };
    entry[row.kind as "signedUp" | "verified" | "indicated"] = Number(row.n);
    weeks.set(number, entry);
  }
  return [...weeks.entries()].sort(([a], [b]) => a - b).map(([, entry]) => entry);
}
