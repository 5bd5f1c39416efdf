/**
 * The investor's own side of the portal: which status screen /financing
 * shows, and giving the name and address the NDA is prepared with.
 */
import { z } from "zod";
import { ADDRESS_LINE_COUNT, NAME_FIELD_MAX_LENGTH } from "~/content/constants";
import { correctionMail, myDetailsContent } from "~/content/my-details";
import { nameAddressMail, nameAddressMessages } from "~/content/portal";
import { emailSchema } from "~/models/account/account-schemas.server";
import { getUserRowByEmail, toPublicUser, type PublicUser } from "~/models/account/user.server";
import { changeWithAudit } from "~/models/audit/audit.server";
import {
  ADDRESS_MAX_LENGTH,
  addressToStore,
  collapseSpaces,
  textField,
  type StoredAddress,
} from "~/models/investors/name-address-schema.server";
import { detailsCorrectable, detailsOpen } from "~/models/nda/nda-details-open.server";
import { now } from "~/server/clock.server";
import { getDb } from "~/server/db.server";
import { getEnv } from "~/server/env.server";
import { trySendMail } from "~/server/mail.server";
import type { OnlyWriter } from "~/server/sql-dialect.server";
import { ndaTimeline, type TimelineStep } from "./nda-timeline.server";
import { searchTextFor } from "./search-text.server";

/** The screens of /financing (docs/requirements.md, "Account and NDA states"): 0 form, 1 thank you, 2 NDA pending, materials, and the administrator's table. */
export type InvestorScreen = "name-address" | "thank-you" | "nda-pending" | "materials" | "administrator";

export function investorScreen(user: PublicUser): InvestorScreen {
  if (user.role.name === "administrator") return "administrator";
  if (!user.fullName.trim() || !user.address.trim()) return "name-address";
  if (!user.isNDASent) return "thank-you";
  if (!user.isNDASigned) return "nda-pending";
  return "materials";
}

/**
 * The API's body (docs/requirements.md, "The JSON API"): { email, full_name, address }; other fields are
 * dropped. The address takes the form's three lines, joined by line feeds; it is stored as the form's
 * is (addressToStore): on one line, its lines joined by spaces, and its lines beside it.
 */
export const setNameAddressSchema = z.object({
  email: emailSchema,
  full_name: textField(NAME_FIELD_MAX_LENGTH, { required: nameAddressMessages.fullNameRequired }).meta({
    description: "The full name the NDA is prepared with: one line.",
    examples: ["Ada Lovelace"],
  }),
  address: textField(ADDRESS_MAX_LENGTH, {
    required: nameAddressMessages.addressRequired,
    lines: ADDRESS_LINE_COUNT,
  }).meta({
    description: `Up to ${ADDRESS_LINE_COUNT} lines, joined by a line feed (\`\\n\`), as the form's address lines; stored on one line, its lines joined by spaces.`,
    examples: ["12 Harbour Street\nSpringfield, IL 62701"],
  }),
});

/**
 * The one place a user's name and address are written (the investor's own form and API, an administrator's
 * correction): whatever must change with `full_name` changes here. The address is as addressToStore made
 * it, its lines beside it. The write is conditional, so a check made before it holds: `unlessFixed` (the
 * investor's own change, while the NDA leaves the details open), `unchangedFrom` (a correction made over what the administrator saw). It is
 * written in the caller's transaction (`db`, from changeWithAudit), with its audit row. Undefined when no
 * row matched.
 */
export function writeNameAndAddress(
  db: OnlyWriter,
  { id, email }: { id: string; email: string },
  { fullName, address, addressLines }: { fullName: string } & StoredAddress,
  {
    unlessFixed = false,
    unchangedFrom,
  }: { unlessFixed?: boolean; unchangedFrom?: { fullName: string; address: string } } = {},
) {
  let update = db
    .updateTable("users")
    .set({
      full_name: collapseSpaces(fullName),
      address,
      address_lines: addressLines,
      search_text: searchTextFor({ fullName: collapseSpaces(fullName), email }),
      updated_at: now(),
    })
    .where("id", "=", id);
  if (unlessFixed) update = update.where(detailsOpen);
  if (unchangedFrom) {
    update = update.where("full_name", "=", unchangedFrom.fullName).where("address", "=", unchangedFrom.address);
  }
  return update.returningAll().executeTakeFirst();
}

/** The address a user row holds, as addressToStore compares it. */
export const storedAddressOf = (row: { address: string; address_lines: string | null }): StoredAddress => ({
  address: row.address,
  addressLines: row.address_lines,
});

export type NameAddressResult =
  { ok: true; user: PublicUser; changed: boolean } | { ok: false; status: 403 | 404 | 409; message: string };

/**
 * Sets a user's full name and address. An investor names only themselves, and
 * only until the NDA is sent (it is prepared with these details), or signed where the portal
 * sent it (nda-details-open.server.ts); an
 * administrator may name anyone. Details given again over others are a
 * correction: written over the values read, recorded with the old and the new
 * ones, and the firm's mailbox is told of it as of the first. The same details
 * again change nothing. A mail failure changes nothing either.
 */
export async function setNameAndAddress({
  actor,
  email,
  fullName,
  address,
  ip,
}: {
  actor: PublicUser;
  email: string;
  fullName: string;
  address: string;
  ip?: string | null;
}): Promise<NameAddressResult> {
  const isAdministrator = actor.role.name === "administrator";
  const target = await getUserRowByEmail(email);
  if (!isAdministrator && target?.id !== actor.id) {
    return { ok: false, status: 403, message: nameAddressMessages.notYours };
  }
  if (!target) return { ok: false, status: 404, message: nameAddressMessages.notFound };
  if (!isAdministrator && !(await detailsCorrectable(target.id))) {
    return { ok: false, status: 409, message: nameAddressMessages.locked };
  }
  const before = { fullName: target.full_name, address: target.address };
  const stored = addressToStore(address, storedAddressOf(target));
  const after = { fullName: collapseSpaces(fullName), address: stored.address };
  const isCorrection = before.fullName.trim() !== "" && before.address.trim() !== "";
  if (isCorrection && before.fullName === after.fullName && before.address === after.address) {
    return { ok: true, user: toPublicUser(target), changed: false };
  }

  // The checks above, made again in the write: an NDA sent since they were read (or the user deleted), or
  // details changed meanwhile, win.
  const row = await changeWithAudit(async (db, record) => {
    const row = await writeNameAndAddress(
      db,
      target,
      { ...after, addressLines: stored.addressLines },
      {
        unlessFixed: !isAdministrator,
        unchangedFrom: isCorrection ? before : undefined,
      },
    );
    if (row) {
      record({
        actorId: actor.id,
        actorEmail: actor.email,
        action: isCorrection ? "profile.name_address.corrected" : "profile.name_address.set",
        targetId: row.id,
        targetEmail: row.email,
        details: isCorrection ? { before, after } : undefined,
        ip: ip ?? null,
      });
    }
    return row;
  });
  if (!row) return refusalAfterRace(target.id, isAdministrator);
  const user = toPublicUser(row);
  if (user.role.name === "investor") {
    const mail = isCorrection
      ? correctionMail({ before, after, email: user.email, byAdministrator: isAdministrator ? actor.email : null })
      : nameAddressMail(user);
    await trySendMail({ to: getEnv().contactEmail, replyTo: user.email, ...mail });
  }
  return { ok: true, user, changed: true };
}

/** Why a conditional write matched no row: the user is gone, their NDA was sent, or their details changed. */
async function refusalAfterRace(id: string, isAdministrator: boolean): Promise<NameAddressResult> {
  const now = await getDb().selectFrom("users").select("id").where("id", "=", id).executeTakeFirst();
  if (!now) return { ok: false, status: 404, message: nameAddressMessages.notFound };
  if (!isAdministrator && !(await detailsCorrectable(id)))
    return { ok: false, status: 409, message: nameAddressMessages.locked };
  return { ok: false, status: 409, message: myDetailsContent.changedMeanwhile };
}

/**
 * What the investor's status screens show: the details as stored (the address with its lines, which the
 * session's user does not carry) and the NDA's steps, with their dates.
 */
export async function ownNdaProgress(user: PublicUser) {
  const [steps, lines, correctable] = await Promise.all([
    ndaTimeline(user.id, user),
    getDb().selectFrom("users").select("address_lines").where("id", "=", user.id).executeTakeFirst(),
    detailsCorrectable(user.id),
  ]);
  // Who at the firm took a step is the firm's record, not the investor's.
  const dated = (step: TimelineStep) => ({ done: step.done, at: step.at });
  return {
    details: {
      fullName: user.fullName,
      address: user.address,
      addressLines: lines?.address_lines ?? null,
      correctable,
    },
    steps: { details: dated(steps.details), sent: dated(steps.sent), signed: dated(steps.signed) },
  };
}
