/**
 * One investor as an administrator sees them on their own page (and get_investor): the account, the NDA's
 * steps from the audit trail, what they viewed and downloaded, and what an administrator may do for them
 * (correct the name and address, send the verification e-mail again, reset the second factor).
 */
import { z } from "zod";
import { investorPageContent, investorPageEmails, REASON_MAX_LENGTH } from "~/content/investor-page";
import { accountMail, appLink } from "~/models/account/account-mail.server";
import { createOneTimeToken } from "~/models/account/one-time-token.server";
import { openSessionCountOf } from "~/models/account/session.server";
import { changeWithAudit, recordAuditEvent } from "~/models/audit/audit.server";
import type { Failure } from "~/models/failure";
import { afterFactorChange } from "~/models/second-factor/factor-change.server";
import {
  forgetSecondFactor,
  secondFactorColumnsOf,
  secondFactorStatusOf,
} from "~/models/second-factor/second-factor.server";
import { throttleAccountMail } from "~/models/throttle.server";
import { now } from "~/server/clock.server";
import { getDb } from "~/server/db.server";
import { trySendMail } from "~/server/mail.server";
import { storedAddressOf, writeNameAndAddress } from "./investor-profile.server";
import { addressToStore, detailsCorrectionSchema, textField } from "./name-address-schema.server";
import { ndaChanges, ndaSteps, type NdaTimeline } from "./nda-timeline.server";

const errors = investorPageContent.errors;

export const ACTIVITY_PAGE_SIZE = 50;

/**
 * What the activity list shows: the investor's own views of the materials, downloads of its files, and the
 * library's documents they opened or were refused.
 */
export const ACTIVITY_ACTIONS = [
  "materials.view",
  "file.download",
  "file.viewed",
  "material.opened",
  "material.refused",
] as const;

/** An id as ids are made (UUIDs; letters, digits and hyphens): anything else is malformed, not unknown. */
export const investorIdSchema = z
  .string({ error: errors.idInvalid })
  .regex(/^[A-Za-z0-9-]{1,64}$/, { error: errors.idInvalid });

/** Where the activity list resumes: the audit row id of the last entry shown (older ones follow). */
export const activityCursorSchema = z
  .string({ error: errors.cursorInvalid })
  .regex(/^[1-9]\d{0,15}$/, { error: errors.cursorInvalid })
  .transform(Number);

/** get_investor's query: the investor's id, and where their activity resumes. */
export const investorQuerySchema = z.object({
  id: investorIdSchema.meta({ description: "The investor's id (as get_investors gives it)." }),
  activityCursor: activityCursorSchema
    .optional()
    .meta({ description: "The `activity.nextCursor` of the answer before: the older activity after it." }),
});

export type { StepChangeKind, TimelineStep } from "./nda-timeline.server";

export type SecondFactorSummary = { authenticator: boolean; passkeys: number; recoveryCodesLeft: number };

export type ActivityEntry = { id: number; at: string; action: string; detail: string };

export type InvestorRecord = {
  id: string;
  email: string;
  fullName: string;
  address: string;
  emailVerified: boolean;
  isNDASent: boolean;
  isNDASigned: boolean;
  registeredAt: string;
  /** Null: not since records began (migration 011). */
  lastSignInAt: string | null;
  secondFactor: SecondFactorSummary;
  sessionsOpen: number;
  timeline: NdaTimeline;
};

export type ActivityPage = { entries: ActivityEntry[]; nextCursor: string | null };

const iso = (at: number) => new Date(at).toISOString();

/** The account, its second factor and its open sessions: one statement, one trip to the database. */
async function investorRow(id: string) {
  return getDb()
    .selectFrom("users")
    .select(["id", "email", "full_name", "address", "address_lines", "is_nda_sent", "is_nda_signed"])
    .select(["email_verified_at"])
    .select(["created_at", "last_login_at"])
    .select((eb) => [...secondFactorColumnsOf(eb), openSessionCountOf(eb, now()).as("sessionsOpen")])
    .where("id", "=", id)
    .where("role", "=", "investor")
    .executeTakeFirst();
}

const notFound: Failure<404> = { ok: false, status: 404, message: errors.notFound };

/** The investor's page shows the address's lines apart; get_investor's `address` is the one string alone. */
export type InvestorPageRecord = InvestorRecord & { addressLines: string | null };

/** The investor's page, all but the activity; null for an id that is no investor's. */
export async function investorPageRecord(id: string): Promise<InvestorPageRecord | null> {
  // One round of queries, not two: for an unknown id the NDA's changes simply find nothing.
  const [row, changes] = await Promise.all([investorRow(id), ndaChanges(id)]);
  if (!row) return null;
  const status = secondFactorStatusOf(row);
  return {
    addressLines: row.address_lines,
    id: row.id,
    email: row.email,
    fullName: row.full_name,
    address: row.address,
    emailVerified: row.email_verified_at !== null,
    isNDASent: row.is_nda_sent === 1,
    isNDASigned: row.is_nda_signed === 1,
    registeredAt: iso(row.created_at),
    lastSignInAt: row.last_login_at === null ? null : iso(row.last_login_at),
    secondFactor: {
      authenticator: status.totp,
      passkeys: status.passkeys,
      recoveryCodesLeft: status.recoveryCodesLeft,
    },
    sessionsOpen: Number(row.sessionsOpen),
    timeline: ndaSteps(
      {
        fullName: row.full_name,
        address: row.address,
        isNDASent: row.is_nda_sent === 1,
        isNDASigned: row.is_nda_signed === 1,
      },
      changes,
    ),
  };
}

/** get_investor's investor: the page's record without the address's lines. */
export async function investorRecord(id: string): Promise<InvestorRecord | null> {
  const page = await investorPageRecord(id);
  if (!page) return null;
  const { addressLines: _lines, ...record } = page;
  return record;
}

/** What an activity row names: the page's path, or the file's name. */
function activityDetail(details: string | null): string {
  try {
    const parsed = JSON.parse(details ?? "{}") as { page?: unknown; file?: unknown; title?: unknown };
    const detail = parsed.page ?? parsed.file ?? parsed.title;
    return typeof detail === "string" ? detail : "";
  } catch {
    return "";
  }
}

/**
 * The investor's views and downloads, newest first, a page at a time: the rows they were the actor of,
 * before `before` (an audit row id). Written for the (actor_id, id) index: one range, read backwards.
 */
export async function investorActivity(id: string, before?: number): Promise<ActivityPage> {
  let query = getDb()
    .selectFrom("audit_events")
    .select(["id", "action", "details", "at"])
    .where("actor_id", "=", id)
    .where("action", "in", ACTIVITY_ACTIONS);
  if (before !== undefined) query = query.where("id", "<", before);
  // One more than shown: its presence says that an older page follows.
  const rows = await query
    .orderBy("id", "desc")
    .limit(ACTIVITY_PAGE_SIZE + 1)
    .execute();
  const entries = rows.slice(0, ACTIVITY_PAGE_SIZE).map((row) => ({
    id: row.id,
    at: iso(row.at),
    action: row.action,
    detail: activityDetail(row.details),
  }));
  const last = entries[entries.length - 1];
  return { entries, nextCursor: rows.length > ACTIVITY_PAGE_SIZE ? String(last.id) : null };
}

type Actor = { id: string; email: string };

/** The reason an administrator gives for a correction: kept in the audit trail, so one line of plain text. */
const reasonField = z.preprocess(
  (value) => value ?? "",
  textField(REASON_MAX_LENGTH, { required: errors.reasonRequired }),
);

/** The correction form: the name, the address on one line, and the reason. */
export const correctionSchema = detailsCorrectionSchema.extend({ reason: reasonField });

export type Correction = z.output<typeof correctionSchema>;

export type CorrectionResult = { ok: true } | Failure<404 | 409>;

/**
 * Corrects an investor's name and address (a typo before the NDA goes out, say): written over the values
 * read, so a change made meanwhile is not lost unseen; the old and new values and the reason go into the
 * audit trail, and the investor is told.
 */
export async function correctInvestor({
  actor,
  id,
  correction,
  ip,
}: {
  actor: Actor;
  id: string;
  correction: Correction;
  ip?: string | null;
}): Promise<CorrectionResult> {
  const before = await investorRow(id);
  if (!before) return notFound;
  const row = await changeWithAudit(async (db, record) => {
    const address = addressToStore(correction.address, storedAddressOf(before));
    const row = await writeNameAndAddress(
      db,
      before,
      { fullName: correction.fullName, ...address },
      {
        unchangedFrom: { fullName: before.full_name, address: before.address },
      },
    );
    if (row) {
      record({
        actorId: actor.id,
        actorEmail: actor.email,
        action: "investor.corrected",
        targetId: row.id,
        targetEmail: row.email,
        details: {
          reason: correction.reason,
          before: { fullName: before.full_name, address: before.address },
          after: { fullName: row.full_name, address: row.address },
        },
        ip,
      });
    }
    return row;
  });
  if (!row) {
    return (await investorRow(id)) ? { ok: false, status: 409, message: errors.changedMeanwhile } : notFound;
  }
  await trySendMail({
    to: row.email,
    ...investorPageEmails.corrected({
      fullName: row.full_name,
      address: row.address,
      loginLink: appLink("/financing/login"),
    }),
  });
  return { ok: true };
}

/** A new verification link for an investor who has not verified yet, throttled as the investor's own resend is. */
export async function resendInvestorVerification({
  actor,
  id,
  ip,
}: {
  actor: Actor;
  id: string;
  ip?: string | null;
}): Promise<{ ok: true } | Failure<404 | 409 | 429>> {
  const row = await investorRow(id);
  if (!row) return notFound;
  if (row.email_verified_at !== null) return { ok: false, status: 409, message: errors.verifiedAlready };
  const throttle = await throttleAccountMail("verify", row.email);
  if (!throttle.allowed) {
    return { ok: false, status: 429, message: errors.mailThrottled, retryAfterSeconds: throttle.retryAfterSeconds };
  }
  accountMail.verify(row.email, await createOneTimeToken(row.id, "verify"));
  await recordAuditEvent({
    actorId: actor.id,
    actorEmail: actor.email,
    action: "investor.verification_resent",
    targetId: row.id,
    targetEmail: row.email,
    ip,
  });
  return { ok: true };
}

/**
 * For an investor who lost their factor: their authenticator, passkeys and recovery codes go, every
 * session and API token ends, and they are told (what every change of a factor does, made by the
 * administrator). They then sign in with their password alone.
 */
export async function resetInvestorFactor({
  actor,
  id,
  ip,
}: {
  actor: Actor;
  id: string;
  ip: string;
}): Promise<{ ok: true } | Failure<404>> {
  const row = await investorRow(id);
  if (!row) return notFound;
  await forgetSecondFactor(row.id);
  await afterFactorChange({
    account: { id: row.id, email: row.email },
    keepSessionIdHash: null,
    action: "investor.factor_reset",
    change: investorPageContent.factorResetChange,
    ip,
    by: actor,
  });
  return { ok: true };
}
