/**
 * The investor's copy of the NDA: the current template rendered with their name, address and e-mail as
 * they now stand. It is made when first asked for, and made again when the template or those details
 * changed, the old one then superseded; offering it is what "NDA sent" means, and it is set then. A signed
 * NDA keeps the copy it was signed on, whatever changes later.
 */
import { randomUUID } from "node:crypto";
import { firmSettings } from "~/content/firm";
import { ndaMessages } from "~/content/nda";
import { changeWithAudit } from "~/models/audit/audit.server";
import type { Failure } from "~/models/failure";
import { completeBlob, deleteBlob, readWholeBlob, storeMadeBlob } from "~/server/blob-store.server";
import { now } from "~/server/clock.server";
import { getDb } from "~/server/db.server";
import { renderCopy } from "./nda-pdf.server";
import { currentNdaTemplate, type NdaTemplate } from "./nda-templates.server";

export type NdaCopy = {
  id: string;
  templateId: string;
  templateNumber: number;
  sha256: string;
  blobId: string;
  fullName: string;
  address: string;
  email: string;
  offeredAt: number;
  superseded: boolean;
};

type Investor = {
  id: string;
  email: string;
  full_name: string;
  address: string;
  address_lines: string | null;
  is_nda_signed: number;
};

const COPY_COLUMNS = [
  "nda_copies.id",
  "nda_copies.template_id",
  "nda_templates.number",
  "nda_copies.sha256",
  "nda_copies.blob_id",
  "nda_copies.full_name",
  "nda_copies.address",
  "nda_copies.email",
  "nda_copies.offered_at",
  "nda_copies.superseded_at",
] as const;

function copies() {
  return getDb().selectFrom("nda_copies").innerJoin("nda_templates", "nda_templates.id", "nda_copies.template_id");
}

function toCopy(row: {
  id: string;
  template_id: string;
  number: number;
  sha256: string;
  blob_id: string;
  full_name: string;
  address: string;
  email: string;
  offered_at: number;
  superseded_at: number | null;
}): NdaCopy {
  return {
    id: row.id,
    templateId: row.template_id,
    templateNumber: Number(row.number),
    sha256: row.sha256,
    blobId: row.blob_id,
    fullName: row.full_name,
    address: row.address,
    email: row.email,
    offeredAt: Number(row.offered_at),
    superseded: row.superseded_at !== null,
  };
}

/** The investor's copy now offered (not superseded), if any. */
export async function offeredCopy(userId: string): Promise<NdaCopy | null> {
  const row = await copies()
    .select(COPY_COLUMNS)
    .where("nda_copies.user_id", "=", userId)
    .where("nda_copies.superseded_at", "is", null)
    .executeTakeFirst();
  return row ? toCopy(row) : null;
}

export async function copyBySha256(userId: string, sha256: string): Promise<NdaCopy | null> {
  const row = await copies()
    .select(COPY_COLUMNS)
    .where("nda_copies.user_id", "=", userId)
    .where("nda_copies.sha256", "=", sha256)
    .orderBy("nda_copies.offered_at", "desc")
    .executeTakeFirst();
  return row ? toCopy(row) : null;
}

export async function copyById(id: string): Promise<NdaCopy | null> {
  const row = await copies().select(COPY_COLUMNS).where("nda_copies.id", "=", id).executeTakeFirst();
  return row ? toCopy(row) : null;
}

export type CopyResult = { ok: true; copy: NdaCopy } | Failure<409>;

export type CopyState =
  Failure<409> | { ok: true; investor: Investor; template: NdaTemplate; offered: NdaCopy | null; current: boolean };

/**
 * Where the investor's copy stands, without changing anything: ready for one (details given, a template
 * uploaded, not signed yet), the copy offered, and whether it is still the current template with their
 * current details.
 */
export async function copyState(userId: string): Promise<CopyState> {
  const investor = await getDb()
    .selectFrom("users")
    .select(["id", "email", "full_name", "address", "address_lines", "is_nda_signed"])
    .where("id", "=", userId)
    .where("role", "=", "investor")
    .executeTakeFirst();
  if (!investor || !investor.full_name.trim() || !investor.address.trim()) {
    return { ok: false, status: 409, message: ndaMessages.notReady };
  }
  if (investor.is_nda_signed === 1) return { ok: false, status: 409, message: ndaMessages.alreadySigned };
  const template = await currentNdaTemplate();
  if (!template) return { ok: false, status: 409, message: ndaMessages.noTemplate };
  const offered = await offeredCopy(userId);
  return { ok: true, investor, template, offered, current: !!offered && isCurrent(offered, template, investor) };
}

/**
 * The copy to review now: the one offered, if it is still current; otherwise a new one, rendered, stored,
 * and offered in place of the old. Marks "NDA sent".
 */
export async function copyToReview(userId: string, ip: string | null): Promise<CopyResult> {
  const state = await copyState(userId);
  if (!state.ok) return state;
  if (state.offered && state.current) return { ok: true, copy: state.offered };
  return { ok: true, copy: await offerNewCopy(state.investor, state.template, ip) };
}

function isCurrent(copy: NdaCopy, template: NdaTemplate, investor: Investor) {
  return (
    copy.templateId === template.id &&
    copy.fullName === investor.full_name &&
    copy.address === investor.address &&
    copy.email === investor.email
  );
}

async function offerNewCopy(investor: Investor, template: NdaTemplate, ip: string | null): Promise<NdaCopy> {
  const offeredAt = now();
  const bytes = await renderCopy(await readWholeBlob(template.blobId), {
    firmName: firmSettings.name,
    templateNumber: template.number,
    templateSha256: template.sha256,
    fullName: investor.full_name,
    addressLines: investor.address_lines?.split("\n") ?? [investor.address],
    email: investor.email,
    offeredAt: new Date(offeredAt),
  });
  const blob = await storeMadeBlob(bytes);
  const copy: NdaCopy = {
    id: randomUUID(),
    templateId: template.id,
    templateNumber: template.number,
    sha256: blob.sha256,
    blobId: blob.id,
    fullName: investor.full_name,
    address: investor.address,
    email: investor.email,
    offeredAt,
    superseded: false,
  };
  try {
    await changeWithAudit(async (db, record) => {
      await db
        .updateTable("nda_copies")
        .set({ superseded_at: offeredAt })
        .where("user_id", "=", investor.id)
        .where("superseded_at", "is", null)
        .execute();
      await db
        .insertInto("nda_copies")
        .values({
          id: copy.id,
          user_id: investor.id,
          template_id: template.id,
          email: investor.email,
          full_name: investor.full_name,
          address: investor.address,
          sha256: copy.sha256,
          blob_id: blob.id,
          offered_at: offeredAt,
          superseded_at: null,
        })
        .execute();
      await completeBlob(db, blob.id);
      const sent = await db
        .updateTable("users")
        .set({ is_nda_sent: 1, updated_at: offeredAt })
        .where("id", "=", investor.id)
        .where("is_nda_sent", "=", 0)
        .returning("id")
        .execute();
      record({
        actorId: investor.id,
        actorEmail: investor.email,
        action: "nda.offered",
        targetId: investor.id,
        targetEmail: investor.email,
        details: {
          copyId: copy.id,
          templateVersion: template.number,
          sha256: copy.sha256,
          // The NDA's steps read "sent" from these, as from an administrator's flag.
          isNDASent: true,
          isNDASigned: false,
          sentNow: sent.length > 0,
        },
        ip,
      });
    });
  } catch (error) {
    await deleteBlob(blob.id);
    throw error;
  }
  return copy;
}
