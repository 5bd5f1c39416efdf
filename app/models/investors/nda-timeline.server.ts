/**
 * The NDA's three steps (details given, sent, signed), read from the audit trail: when each step was done
 * and by whom, and beneath it every other change of it (a correction of the details, a flag undone and done
 * again). The administrator's page of an investor shows them, the investor's own status screens show their
 * dates, and the investor's data export carries them, so all three say what the audit log says.
 */
import { detailsObject } from "~/models/audit/audit-log.server";
import { getDb } from "~/server/db.server";

/** The audit rows the NDA's steps are read from, all targeted at the investor. */
const TIMELINE_ACTIONS = [
  "profile.name_address.set",
  "profile.name_address.corrected",
  "investor.corrected",
  "nda.sent.changed",
  "nda.signed.changed",
  // The NDA signed in the portal: its copy offered sets "sent", its completion both (their details say so).
  "nda.offered",
  "nda.completed",
  // Marked completed by hand on the investor's page, as signed outside the portal: both flags set.
  "nda.recorded_outside",
];
const DETAILS_ACTIONS = new Set(["profile.name_address.set", "profile.name_address.corrected", "investor.corrected"]);

/** What one audit row did to a step: did it (gave the details, marked a flag), undid a flag, or corrected the details. */
export type DetailsChangeKind = "done" | "corrected";
export type FlagChangeKind = "done" | "undone";
export type StepChangeKind = DetailsChangeKind | FlagChangeKind;

/** One change of a step as the trail has it: what, when, and who (as recorded). */
export type StepChange<Kind extends StepChangeKind = StepChangeKind> = {
  change: Kind;
  at: number;
  actorId: string | null;
  actorEmail: string | null;
};

/** Every change of each step, oldest first. */
export type NdaChanges = {
  details: StepChange<DetailsChangeKind>[];
  sent: StepChange<FlagChangeKind>[];
  signed: StepChange<FlagChangeKind>[];
};

export type TimelineLine<Kind extends StepChangeKind = StepChangeKind> = {
  change: Kind;
  at: string;
  by: string | null;
};

export type TimelineStep<Kind extends StepChangeKind = StepChangeKind> = {
  /** The step as it now stands. */
  done: boolean;
  /**
   * When and by whom it was done: the first time, or, for a flag undone and done again, the first time of
   * its current run. Null when not done, or done before the trail recorded it.
   */
  at: string | null;
  by: string | null;
  /** The step's other changes, oldest first: corrections, and a flag's earlier runs and undoings. */
  history: TimelineLine<Kind>[];
};

export type NdaTimeline = {
  details: TimelineStep<DetailsChangeKind>;
  sent: TimelineStep<FlagChangeKind>;
  signed: TimelineStep<FlagChangeKind>;
};

export type NdaState = { fullName: string; address: string; isNDASent: boolean; isNDASigned: boolean };

/** Who a change is said to be by: the administrator's page names them by e-mail address. */
export type Describe = (change: StepChange) => string | null;

const byEmail: Describe = (change) => change.actorEmail;

/** The steps of a user as their row now stands: whether each is done comes from the row, when from the trail. */
export function ndaSteps(now: NdaState, changes: NdaChanges, by: Describe = byEmail): NdaTimeline {
  return {
    details: step(now.fullName.trim() !== "" && now.address.trim() !== "", changes.details, by),
    sent: step(now.isNDASent, changes.sent, by),
    signed: step(now.isNDASigned, changes.signed, by),
  };
}

export async function ndaTimeline(id: string, now: NdaState, by: Describe = byEmail): Promise<NdaTimeline> {
  return ndaSteps(now, await ndaChanges(id), by);
}

function step<Kind extends StepChangeKind>(
  done: boolean,
  changes: StepChange<Kind>[],
  by: Describe,
): TimelineStep<Kind> {
  // The current run began with the newest doing, if nothing undid it since; a step the trail leaves undone
  // (or never shows done) while the row has it done was done before the trail recorded it.
  const newest = changes.findLast((change) => change.change !== "corrected");
  const run = done && newest?.change === "done" ? newest : undefined;
  const line = (change: StepChange<Kind>): TimelineLine<Kind> => ({
    change: change.change,
    at: new Date(change.at).toISOString(),
    by: by(change),
  });
  return {
    done,
    at: run ? line(run).at : null,
    by: run ? by(run) : null,
    history: changes.filter((change) => change !== run).map(line),
  };
}

type TrailRow = {
  action: string;
  details: string | null;
  at: number;
  actor_id: string | null;
  actor_email: string | null;
};

/**
 * Each step's changes, oldest first, from a walk of the investor's rows in the trail's order, which the
 * (target_id, id) index serves. A flag's row that changes nothing (marked "yes" again) is no change of its
 * step; "signed: yes" that also sets "sent" is a change of both, as "sent: no" that also clears "signed" is.
 */
export async function ndaChanges(id: string): Promise<NdaChanges> {
  const rows = await getDb()
    .selectFrom("audit_events")
    .select(["id", "action", "details", "at", "actor_id", "actor_email"])
    .where("target_id", "=", id)
    .where("action", "in", TIMELINE_ACTIONS)
    .orderBy("id")
    .execute();
  const changes: NdaChanges = { details: [], sent: [], signed: [] };
  // Before the first row the flags are taken as not set: a flag set before the trail began shows undated.
  let flags = { sent: false, signed: false };
  for (const row of rows) {
    const change = <Kind extends StepChangeKind>(kind: Kind): StepChange<Kind> => ({
      change: kind,
      at: Number(row.at),
      actorId: row.actor_id,
      actorEmail: row.actor_email,
    });
    if (DETAILS_ACTIONS.has(row.action)) {
      changes.details.push(change(givesDetails(row) ? "done" : "corrected"));
      continue;
    }
    const after = flagsAfter(row, flags);
    if (after.sent !== flags.sent) changes.sent.push(change(after.sent ? "done" : "undone"));
    if (after.signed !== flags.signed) changes.signed.push(change(after.signed ? "done" : "undone"));
    flags = after;
  }
  return changes;
}

/** A name and address given where there were none: the investor's first form, or a correction of nothing. */
function givesDetails(row: TrailRow): boolean {
  if (row.action === "profile.name_address.set") return true;
  const before = detailsObject(row.details).before as { fullName?: unknown; address?: unknown } | undefined;
  const given = (value: unknown) => typeof value === "string" && value.trim() !== "";
  return !!before && !(given(before.fullName) && given(before.address));
}

/**
 * Both flags after a flag's row. Its details say so; older rows keep only the flag's new state, and the
 * flags' rule gives the other ("signed: yes" sets "sent", "sent: no" clears "signed").
 */
function flagsAfter(row: TrailRow, before: { sent: boolean; signed: boolean }) {
  const details = detailsObject(row.details);
  if (typeof details.isNDASent === "boolean" && typeof details.isNDASigned === "boolean") {
    return { sent: details.isNDASent, signed: details.isNDASigned };
  }
  const state = details.state === true;
  return row.action === "nda.sent.changed"
    ? { sent: state, signed: state && before.signed }
    : { sent: state || before.sent, signed: state };
}
