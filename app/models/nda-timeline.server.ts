/**
 * The NDA's three steps (details given, sent, signed) with when and by whom each last changed, read from
 * the audit trail: the administrator's page of an investor shows them, and so do the investor's own
 * status screens and their data export.
 */
import { getDb } from "~/server/db.server";

/** The audit rows the NDA's steps are read from, all targeted at the investor. */
const TIMELINE_ACTIONS = [
  "profile.name_address.set",
  "profile.name_address.corrected",
  "investor.corrected",
  "nda.sent.changed",
  "nda.signed.changed",
];
const DETAILS_ACTIONS = new Set(["profile.name_address.set", "profile.name_address.corrected", "investor.corrected"]);
/** How far back the steps are looked for: each change of a flag is one row, and a flag changes a handful of times. */
const TIMELINE_ROWS = 50;

export type TimelineStep = {
  /** The step as it now stands. */
  done: boolean;
  /** When and by whom it last changed, as the audit trail has it; null before records began (or never). */
  at: string | null;
  by: string | null;
};

export type NdaTimeline = { details: TimelineStep; sent: TimelineStep; signed: TimelineStep };

type StepRow = { at: number; actor_email: string | null };

function step(done: boolean, row: StepRow | undefined): TimelineStep {
  // A step done, with no row that did it, was done before the trail recorded it.
  return row ? { done, at: new Date(row.at).toISOString(), by: row.actor_email } : { done, at: null, by: null };
}

export type NdaState = { fullName: string; address: string; isNDASent: boolean; isNDASigned: boolean };

/** The steps of a user as their row now stands: whether each is done comes from the row, when from the trail. */
export function ndaSteps(now: NdaState, changes: NdaChanges): NdaTimeline {
  return {
    details: step(now.fullName.trim() !== "" && now.address.trim() !== "", changes.details),
    sent: step(now.isNDASent, changes.sent),
    signed: step(now.isNDASigned, changes.signed),
  };
}

export async function ndaTimeline(id: string, now: NdaState): Promise<NdaTimeline> {
  return ndaSteps(now, await ndaChanges(id));
}

export type NdaChanges = Awaited<ReturnType<typeof ndaChanges>>;

/**
 * The newest row that changed each step (newest state wins): "signed: yes" also sets "sent", "sent: no"
 * also clears "signed". One walk down the investor's rows, newest first, which the (target_id, id) index
 * serves.
 */
export async function ndaChanges(id: string) {
  const rows = await getDb()
    .selectFrom("audit_events")
    .select(["id", "action", "details", "at", "actor_email"])
    .where("target_id", "=", id)
    .where("action", "in", TIMELINE_ACTIONS)
    .orderBy("id", "desc")
    .limit(TIMELINE_ROWS)
    .execute();
  const stateOf = (details: string | null) => {
    try {
      return (JSON.parse(details ?? "{}") as { state?: unknown }).state === true;
    } catch {
      return false;
    }
  };
  let details: StepRow | undefined;
  let sent: StepRow | undefined;
  let signed: StepRow | undefined;
  for (const row of rows) {
    if (DETAILS_ACTIONS.has(row.action)) details ??= row;
    if (row.action === "nda.sent.changed") {
      sent ??= row;
      if (!stateOf(row.details)) signed ??= row;
    }
    if (row.action === "nda.signed.changed") {
      signed ??= row;
      if (stateOf(row.details)) sent ??= row;
    }
  }
  return { details, sent, signed };
}
