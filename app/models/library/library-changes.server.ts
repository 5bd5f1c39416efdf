/**
 * An administrator's changes to the library, each audited: a new document with its first version, a new
 * version, an upload discarded, new details, publishing and unpublishing, a move up or down the list.
 */
import { randomUUID } from "node:crypto";
import { materialsMessages } from "~/content/materials";
import { changeWithAudit, type AuditEvent } from "~/models/audit/audit.server";
import { completeBlob, deleteBlob } from "~/server/blob-store.server";
import { now } from "~/server/clock.server";
import type { DocumentAudienceKind, DocumentKind } from "~/server/db.server";
import type { OnlyWriter } from "~/server/sql-dialect.server";
import { nonInvestors } from "./library-audience.server";
import { byActor, type Actor, type MaterialsResult } from "./library-documents.server";

/** An upload that passed its checks, ready to become a version. */
export interface CheckedUpload {
  blobId: string;
  fileName: string;
  contentType: string;
  size: number;
  sha256: string;
  captionsBlobId?: string | null;
}

export interface NewDocument {
  title: string;
  description: string;
  kind: DocumentKind;
  audience: DocumentAudienceKind;
  chosenUserIds: readonly string[];
  upload: CheckedUpload;
}

/** A new document at the end of the list, with its first version: a draft, which investors see once published. */
export async function createDocument(input: NewDocument, actor: Actor): Promise<MaterialsResult<{ id: string }>> {
  const strangers = await nonInvestors(input.chosenUserIds);
  if (strangers.length > 0) return { ok: false, status: 400, message: materialsMessages.audienceNotInvestors };
  const id = randomUUID();
  const at = now();
  await changeWithAudit(async (trx, record) => {
    const last = await trx
      .selectFrom("documents")
      .select((eb) => eb.fn.max("position").as("position"))
      .executeTakeFirst();
    await trx
      .insertInto("documents")
      .values({
        id,
        title: input.title,
        description: input.description,
        kind: input.kind,
        position: Number(last?.position ?? 0) + 1,
        audience: input.audience,
        published: 0,
        created_by: actor.user.id,
        created_at: at,
        updated_at: at,
      })
      .execute();
    await insertVersion(trx, id, 1, input.upload, actor, at);
    if (input.audience === "chosen" && input.chosenUserIds.length > 0)
      await trx
        .insertInto("document_audience")
        .values(input.chosenUserIds.map((userId) => ({ document_id: id, user_id: userId })))
        .execute();
    record(
      byActor(actor, "material.uploaded", {
        documentId: id,
        title: input.title,
        kind: input.kind,
        size: input.upload.size,
        sha256: input.upload.sha256,
        audience: input.audience,
        chosen: input.chosenUserIds.length,
      }),
    );
  });
  return { ok: true, id };
}

async function insertVersion(
  trx: OnlyWriter,
  documentId: string,
  number: number,
  upload: CheckedUpload,
  actor: Actor,
  at: number,
) {
  await trx
    .insertInto("document_versions")
    .values({
      id: randomUUID(),
      document_id: documentId,
      number,
      file_name: upload.fileName,
      content_type: upload.contentType,
      size: upload.size,
      sha256: upload.sha256,
      blob_id: upload.blobId,
      captions_blob_id: upload.captionsBlobId ?? null,
      uploaded_by: actor.user.id,
      created_at: at,
    })
    .execute();
  await completeBlob(trx, upload.blobId);
  if (upload.captionsBlobId) await completeBlob(trx, upload.captionsBlobId);
}

/** Replaces a document by a new version; the earlier ones are kept. The upload must be of the document's kind. */
export async function addVersion(
  documentId: string,
  kind: DocumentKind,
  upload: CheckedUpload,
  actor: Actor,
): Promise<MaterialsResult<{ number: number }>> {
  const at = now();
  const added = await changeWithAudit(async (trx, record) => {
    const document = await trx
      .selectFrom("documents")
      .select(["kind", "title"])
      .where("id", "=", documentId)
      .executeTakeFirst();
    if (!document) return null;
    if (document.kind !== kind) return "wrong-kind" as const;
    const last = await trx
      .selectFrom("document_versions")
      .select((eb) => eb.fn.max("number").as("number"))
      .where("document_id", "=", documentId)
      .executeTakeFirst();
    const next = Number(last?.number ?? 0) + 1;
    await insertVersion(trx, documentId, next, upload, actor, at);
    await trx.updateTable("documents").set({ updated_at: at }).where("id", "=", documentId).execute();
    record(
      byActor(actor, "material.replaced", {
        documentId,
        title: document.title,
        version: next,
        size: upload.size,
        sha256: upload.sha256,
      }),
    );
    return { number: next };
  });
  if (added === null) return { ok: false, status: 404, message: materialsMessages.notFound };
  if (added === "wrong-kind") return { ok: false, status: 400, message: materialsMessages.wrongKindForVersion };
  return { ok: true, number: added.number };
}

/** Discards an upload that will not become a version (a refused file, a form with a mistake). */
export async function discardUpload(upload: Pick<CheckedUpload, "blobId" | "captionsBlobId">) {
  await deleteBlob(upload.blobId);
  if (upload.captionsBlobId) await deleteBlob(upload.captionsBlobId);
}

/**
 * Applies the changes with the audit row `recordOf` makes of the document's title (after them); false when there
 * is no such document.
 */
async function updateDocument(
  documentId: string,
  changes: { title?: string; description?: string; published?: number; downloadable?: number },
  recordOf: (title: string) => AuditEvent,
): Promise<boolean> {
  return changeWithAudit(async (db, record) => {
    const row = await db
      .updateTable("documents")
      .set({ ...changes, updated_at: now() })
      .where("id", "=", documentId)
      .returning("title")
      .executeTakeFirst();
    if (row) record(recordOf(row.title));
    return row !== undefined;
  });
}

/** A new title and description. */
export async function editDocument(
  documentId: string,
  { title, description }: { title: string; description: string },
  actor: Actor,
): Promise<MaterialsResult> {
  const edited = await updateDocument(documentId, { title, description }, () =>
    byActor(actor, "material.edited", { documentId, title }),
  );
  if (!edited) return { ok: false, status: 404, message: materialsMessages.notFound };
  return { ok: true };
}

/** Unpublishes (investors no longer see or open it) or publishes again. */
export async function setPublished(documentId: string, published: boolean, actor: Actor): Promise<MaterialsResult> {
  const changed = await updateDocument(documentId, { published: published ? 1 : 0 }, (title) =>
    byActor(actor, published ? "material.published" : "material.unpublished", { documentId, title }),
  );
  if (!changed) return { ok: false, status: 404, message: materialsMessages.notFound };
  return { ok: true };
}

/** Lets investors download their stamped copy of a PDF, or shows it in the page's viewer only. */
export async function setDownloadable(
  documentId: string,
  downloadable: boolean,
  actor: Actor,
): Promise<MaterialsResult> {
  const changed = await updateDocument(documentId, { downloadable: downloadable ? 1 : 0 }, (title) =>
    byActor(actor, "material.download_changed", { documentId, title, downloadable }),
  );
  if (!changed) return { ok: false, status: 404, message: materialsMessages.notFound };
  return { ok: true };
}

/** Moves a document one place up or down the list, swapping it with its neighbour. */
export async function moveDocument(
  documentId: string,
  direction: "up" | "down",
  actor: Actor,
): Promise<MaterialsResult> {
  const moved = await changeWithAudit(async (trx, record) => {
    const order = await trx
      .selectFrom("documents")
      .select(["id", "position"])
      .orderBy("position")
      .orderBy("created_at")
      .execute();
    const index = order.findIndex((row) => row.id === documentId);
    if (index === -1) return null;
    const other = direction === "up" ? index - 1 : index + 1;
    if (other < 0 || other >= order.length) return false;
    // Positions renumbered 1..n, so that two equal ones never leave a move without effect.
    const ids = order.map((row) => row.id);
    [ids[index], ids[other]] = [ids[other], ids[index]];
    for (const [i, id] of ids.entries())
      await trx
        .updateTable("documents")
        .set({ position: i + 1 })
        .where("id", "=", id)
        .execute();
    record(byActor(actor, "material.moved", { documentId, direction }));
    return true;
  });
  if (moved === null) return { ok: false, status: 404, message: materialsMessages.notFound };
  return { ok: true };
}
