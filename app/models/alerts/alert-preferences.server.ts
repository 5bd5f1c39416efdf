/**
 * What each administrator chose to be told by e-mail (decision 0036): alerts on first openings, a daily
 * digest at an hour of theirs, or nothing (no row). Every alert e-mail links to this choice with a signed
 * link that changes it without signing in; the link names the administrator and is signed under
 * SESSION_SECRET (app/server/signed-text.server.ts), so an altered one is refused.
 */
import type { Kysely } from "kysely";
import { z } from "zod";
import { alertMessages } from "~/content/alerts";
import type { PublicUser } from "~/models/account/user.server";
import { changeWithAudit } from "~/models/audit/audit.server";
import { now } from "~/server/clock.server";
import { type AlertMode, type Database, getDb } from "~/server/db.server";
import { getEnv } from "~/server/env.server";
import { signText, verifiedText } from "~/server/signed-text.server";

export type { AlertMode };

export type AlertPreference = { mode: AlertMode; digestHour: number };

/** The digest's hour for an administrator who never chose one. */
export const DEFAULT_DIGEST_HOUR = 8;

export const ALERT_MODES = ["openings", "digest", "off"] as const satisfies readonly AlertMode[];

export const alertPreferenceSchema = z.object({
  mode: z.enum(ALERT_MODES, { error: alertMessages.unknownMode }),
  digestHour: z.coerce
    .number({ error: alertMessages.badHour })
    .int({ error: alertMessages.badHour })
    .min(0, { error: alertMessages.badHour })
    .max(23, { error: alertMessages.badHour })
    .default(DEFAULT_DIGEST_HOUR),
});

export async function alertPreferenceOf(userId: string): Promise<AlertPreference> {
  const row = await getDb()
    .selectFrom("alert_preferences")
    .select(["mode", "digest_hour"])
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return row
    ? { mode: row.mode, digestHour: Number(row.digest_hour) }
    : { mode: "off", digestHour: DEFAULT_DIGEST_HOUR };
}

/** Stores the administrator's choice, with its audit row; `via` tells a signed link from their own page. */
export async function setAlertPreference(
  user: Pick<PublicUser, "id" | "email">,
  preference: AlertPreference,
  { ip, via }: { ip: string | null; via: "page" | "signed-link" | "one-click" },
) {
  const at = now();
  await changeWithAudit(async (db, record) => {
    await db
      .insertInto("alert_preferences")
      .values({ user_id: user.id, mode: preference.mode, digest_hour: preference.digestHour, updated_at: at })
      .onConflict((oc) =>
        oc.column("user_id").doUpdateSet({ mode: preference.mode, digest_hour: preference.digestHour, updated_at: at }),
      )
      .execute();
    record({
      actorId: user.id,
      actorEmail: user.email,
      action: "alerts.changed",
      details: { mode: preference.mode, digestHour: preference.digestHour, via },
      ip,
    });
  });
}

/** The administrators who chose `mode`, with when they chose it. */
export async function administratorsWhoChose(mode: Exclude<AlertMode, "off">, db: Kysely<Database> = getDb()) {
  const rows = await db
    .selectFrom("alert_preferences as p")
    .innerJoin("users as u", "u.id", "p.user_id")
    .select(["u.id", "u.email", "p.digest_hour", "p.updated_at"])
    .where("p.mode", "=", mode)
    .where("u.role", "=", "administrator")
    .execute();
  return rows.map((row) => ({
    id: row.id,
    email: row.email,
    digestHour: Number(row.digest_hour),
    chosenAt: Number(row.updated_at),
  }));
}

const LINK_PURPOSE = "alert-preference";

/** The token of an administrator's signed link to their alerts. */
export function alertPreferenceToken(userId: string): string {
  return signText(LINK_PURPOSE, Buffer.from(userId).toString("base64url"));
}

/** The page an e-mail links to (and its one-click List-Unsubscribe address). */
export function alertPreferenceLink(userId: string): string {
  return new URL(`/alerts/${alertPreferenceToken(userId)}`, getEnv().appUrl).href;
}

/** The administrator a signed link names, or null for a link this server did not issue. */
export function userIdOfAlertToken(token: string): string | null {
  const text = verifiedText(LINK_PURPOSE, token);
  return text === null ? null : Buffer.from(text, "base64url").toString();
}
