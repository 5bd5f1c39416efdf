/**
 * Who may open what: the published documents an investor's list shows (marked new or updated), the latest
 * version a reader may open (a refusal audited), and any earlier version for an administrator.
 */
import { materialsMessages } from "~/content/materials";
import type { PublicUser } from "~/models/account/user.server";
import { recordAuditEvent } from "~/models/audit/audit.server";
import { getDb, type DocumentAudienceKind } from "~/server/db.server";
import { canSeeMaterials } from "./access.server";
import {
  documentsWithLatest,
  toDocument,
  toVersion,
  VERSION_COLUMNS,
  type LibraryDocument,
  type MaterialsResult,
  type VersionSummary,
} from "./library-documents.server";

/** A document as an investor's list shows it: "new" or "updated" since their last visit. */
export interface OpenableDocument extends LibraryDocument {
  mark: "new" | "updated" | null;
}

/** Whether the user may open the document: published, and they are in its audience (an administrator always is). */
function inAudience(
  user: PublicUser,
  document: { published: number; audience: DocumentAudienceKind },
  chosen: boolean,
) {
  if (user.role.name === "administrator") return true;
  if (!canSeeMaterials(user) || document.published !== 1) return false;
  return document.audience === "signed" || chosen;
}

/** The published documents the user may open, marked against their previous visit to the materials page. */
export async function listOpenableDocuments(
  user: PublicUser,
  previousVisitAt: number | null,
): Promise<OpenableDocument[]> {
  const rows = await documentsWithLatest()
    .leftJoin("document_audience as a", (join) =>
      join.onRef("a.document_id", "=", "d.id").on("a.user_id", "=", user.id),
    )
    .select("a.user_id as chosen")
    .execute();
  return rows
    .filter((row) => row.published === 1 && inAudience(user, row, row.chosen !== null))
    .map((row) => {
      const document = toDocument(row);
      const mark =
        previousVisitAt === null || document.createdAt > previousVisitAt
          ? "new"
          : document.latest.createdAt > previousVisitAt
            ? "updated"
            : null;
      return { ...document, mark };
    });
}

export interface OpenableVersion {
  document: LibraryDocument;
  blobId: string;
  captionsBlobId: string | null;
}

/**
 * The latest version of a document the user may open. A document that does not exist (or, for an
 * investor, is unpublished) is 404; one outside their audience is 403, and the refusal is audited.
 */
export async function openableVersion(
  user: PublicUser,
  documentId: string,
  ip: string | null,
): Promise<MaterialsResult<OpenableVersion>> {
  const row = await documentsWithLatest()
    .innerJoin("blobs as b", "b.id", "v.blob_id")
    .select(["v.blob_id", "b.complete"])
    .leftJoin("document_audience as a", (join) =>
      join.onRef("a.document_id", "=", "d.id").on("a.user_id", "=", user.id),
    )
    .select("a.user_id as chosen")
    .where("d.id", "=", documentId)
    .executeTakeFirst();
  const visible = row && (row.published === 1 || user.role.name === "administrator");
  if (!row || !visible) return { ok: false, status: 404, message: materialsMessages.notFound };
  if (!inAudience(user, row, row.chosen !== null)) {
    await recordAuditEvent({
      actorId: user.id,
      actorEmail: user.email,
      action: "material.refused",
      details: { documentId, title: row.title },
      ip,
    });
    return { ok: false, status: 403, message: materialsMessages.notInAudience };
  }
  return { ok: true, document: toDocument(row), blobId: row.blob_id, captionsBlobId: row.captions_blob_id };
}

export interface EarlierVersion extends OpenableVersion {
  version: VersionSummary;
}

/** Any version of a document, by its number, for an administrator looking back at what investors were shown. */
export async function documentVersion(documentId: string, number: number): Promise<EarlierVersion | null> {
  const document = await documentsWithLatest().where("d.id", "=", documentId).executeTakeFirst();
  if (!document) return null;
  const row = await getDb()
    .selectFrom("document_versions as v")
    .leftJoin("users as u", "u.id", "v.uploaded_by")
    .select([...VERSION_COLUMNS, "v.blob_id"])
    .where("v.document_id", "=", documentId)
    .where("v.number", "=", number)
    .executeTakeFirst();
  if (!row) return null;
  return {
    document: toDocument(document),
    version: toVersion(row),
    blobId: row.blob_id,
    captionsBlobId: row.captions_blob_id,
  };
}
