/**
 * Consent to electronic records (ESIGN §101(c)): before the first signature the investor agrees to the
 * firm's disclosure, whose version and SHA-256 are kept with the consent. Withdrawing it is recorded,
 * e-mails the firm, and returns the investor to the manual path (an NDA sent and signed by other means).
 */
import { createHash, randomUUID } from "node:crypto";
import { firm } from "~/content/firm";
import { NDA_DISCLOSURE_VERSION, ndaDisclosure, ndaMessages } from "~/content/nda";
import { changeWithAudit, ownAccountEvent } from "~/models/audit/audit.server";
import type { Failure } from "~/models/failure";
import { now } from "~/server/clock.server";
import { getDb } from "~/server/db.server";
import { trySendMail } from "~/server/mail.server";

export type Signer = { id: string; email: string; fullName: string };
export type FromClient = { ip: string; userAgent: string | null };

/** The SHA-256 of the disclosure's words as shown: what the consent is to. */
export function disclosureSha256(): string {
  const words = [ndaDisclosure.title, ...ndaDisclosure.paragraphs, ndaDisclosure.agree].join("\n");
  return createHash("sha256").update(words).digest("hex");
}

export type Consent = { id: string; givenAt: number; disclosureVersion: string; disclosureSha256: string };

/** The investor's consent now in force, if any. */
export async function activeConsent(userId: string): Promise<Consent | null> {
  const row = await getDb()
    .selectFrom("nda_consents")
    .select(["id", "given_at", "disclosure_version", "disclosure_sha256"])
    .where("user_id", "=", userId)
    .where("withdrawn_at", "is", null)
    .orderBy("given_at", "desc")
    .limit(1)
    .executeTakeFirst();
  return row
    ? {
        id: row.id,
        givenAt: Number(row.given_at),
        disclosureVersion: row.disclosure_version,
        disclosureSha256: row.disclosure_sha256,
      }
    : null;
}

export async function giveConsent(
  user: Signer,
  { agreed, ip, userAgent }: { agreed: boolean } & FromClient,
): Promise<{ ok: true; consent: Consent } | Failure<400>> {
  if (!agreed) return { ok: false, status: 400, message: ndaMessages.consentNotTicked };
  const existing = await activeConsent(user.id);
  if (existing) return { ok: true, consent: existing };
  const consent: Consent = {
    id: randomUUID(),
    givenAt: now(),
    disclosureVersion: NDA_DISCLOSURE_VERSION,
    disclosureSha256: disclosureSha256(),
  };
  await changeWithAudit(async (db, record) => {
    await db
      .insertInto("nda_consents")
      .values({
        id: consent.id,
        user_id: user.id,
        email: user.email,
        disclosure_version: consent.disclosureVersion,
        disclosure_sha256: consent.disclosureSha256,
        given_at: consent.givenAt,
        ip,
        user_agent: userAgent,
        withdrawn_at: null,
      })
      .execute();
    record(
      ownAccountEvent(user, "nda.consent.given", {
        ip,
        details: {
          consentId: consent.id,
          disclosureVersion: consent.disclosureVersion,
          sha256: consent.disclosureSha256,
        },
      }),
    );
  });
  return { ok: true, consent };
}

/** Withdraws the consent in force; the firm is told by e-mail, and the outcome of that mail is recorded. */
export async function withdrawConsent(user: Signer, { ip }: FromClient): Promise<{ ok: true } | Failure<409>> {
  const withdrawn = await changeWithAudit(async (db, record) => {
    const rows = await db
      .updateTable("nda_consents")
      .set({ withdrawn_at: now() })
      .where("user_id", "=", user.id)
      .where("withdrawn_at", "is", null)
      .returning("id")
      .execute();
    if (rows.length > 0) {
      record(ownAccountEvent(user, "nda.consent.withdrawn", { ip, details: { consentIds: rows.map((r) => r.id) } }));
    }
    return rows.length > 0;
  });
  if (!withdrawn) return { ok: false, status: 409, message: ndaMessages.noConsentToWithdraw };
  const mailed = await trySendMail({
    to: firm.mailboxes.investors,
    subject: `Consent to electronic records withdrawn: ${user.email}`,
    text:
      `${user.fullName || user.email} (${user.email}) withdrew their consent to electronic records and signatures.\n\n` +
      `Their non-disclosure agreement now follows the manual path: send it by other means, and mark it sent and signed on their page.`,
  });
  await changeWithAudit(async (_db, record) =>
    record(ownAccountEvent(user, "nda.consent.withdrawal_mailed", { ip, details: { mailed } })),
  );
  return { ok: true };
}
