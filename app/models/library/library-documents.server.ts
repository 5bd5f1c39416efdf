/**
 * The library's documents and their versions as the administrators' pages read them: the shapes the library's
 * modules share, the query for each document with its latest version, the whole list and one document in detail.
 */
import type { Selectable } from "kysely";
import type { PublicUser } from "~/models/account/user.server";
import type { AuditEvent } from "~/models/audit/audit.server";
import { getDb, type DocumentAudienceKind, type DocumentKind, type DocumentsTable } from "~/server/db.server";

export type { DocumentAudienceKind, DocumentKind };

export interface VersionSummary {
  id: string;
  number: number;
  fileName: string;
  contentType: string;
  size: number;
  sha256: string;
  createdAt: number;
  hasCaptions: boolean;
  uploadedBy: string | null;
}

export interface LibraryDocument {
  id: string;
  title: string;
  description: string;
  kind: DocumentKind;
  position: number;
  audience: DocumentAudienceKind;
  published: boolean;
  /** Whether investors may download their stamped copy, or only read it in the page's viewer. */
  downloadable: boolean;
  createdAt: number;
  updatedAt: number;
  latest: VersionSummary;
}

export interface ChosenInvestor {
  id: string;
  email: string;
  fullName: string;
}

export interface LibraryDocumentDetail extends LibraryDocument {
  versions: VersionSummary[];
  chosen: ChosenInvestor[];
}

export type MaterialsFailure = { ok: false; status: 400 | 403 | 404 | 409; message: string };
export type MaterialsResult<T = object> = ({ ok: true } & T) | MaterialsFailure;

/** Who acts, and from where: for the audit trail. */
export interface Actor {
  user: Pick<PublicUser, "id" | "email">;
  ip: string | null;
}

export const VERSION_COLUMNS = [
  "v.id as version_id",
  "v.number",
  "v.file_name",
  "v.content_type",
  "v.size",
  "v.sha256",
  "v.created_at as version_created_at",
  "v.captions_blob_id",
  "u.email as uploaded_by_email",
] as const;

type VersionRow = {
  version_id: string;
  number: number;
  file_name: string;
  content_type: string;
  size: number;
  sha256: string;
  version_created_at: number;
  captions_blob_id: string | null;
  uploaded_by_email: string | null;
};

export function toVersion(row: VersionRow): VersionSummary {
  return {
    id: row.version_id,
    number: row.number,
    fileName: row.file_name,
    contentType: row.content_type,
    size: Number(row.size),
    sha256: row.sha256,
    createdAt: Number(row.version_created_at),
    hasCaptions: row.captions_blob_id !== null,
    uploadedBy: row.uploaded_by_email,
  };
}

/** Each document with its latest version, in the library's order. */
export function documentsWithLatest() {
  return getDb()
    .selectFrom("documents as d")
    .innerJoin("document_versions as v", (join) =>
      join.onRef("v.document_id", "=", "d.id").on("v.number", "=", (eb) =>
        eb
          .selectFrom("document_versions as w")
          .select((w) => w.fn.max("w.number").as("n"))
          .whereRef("w.document_id", "=", "d.id"),
      ),
    )
    .leftJoin("users as u", "u.id", "v.uploaded_by")
    .select([
      "d.id",
      "d.title",
      "d.description",
      "d.kind",
      "d.position",
      "d.audience",
      "d.published",
      "d.downloadable",
      "d.created_at",
      "d.updated_at",
      ...VERSION_COLUMNS,
    ])
    .orderBy("d.position")
    .orderBy("d.created_at");
}

type DocumentRow = VersionRow & Omit<Selectable<DocumentsTable>, "created_by">;

export function toDocument(row: DocumentRow): LibraryDocument {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    kind: row.kind,
    position: row.position,
    audience: row.audience,
    published: row.published === 1,
    downloadable: row.downloadable === 1,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    latest: toVersion(row),
  };
}

/** The whole library, published or not: the administrators' list. */
export async function listLibrary(): Promise<LibraryDocument[]> {
  return (await documentsWithLatest().execute()).map(toDocument);
}

/** One document with all its versions (newest first) and its chosen investors, or null. */
export async function getLibraryDocument(id: string): Promise<LibraryDocumentDetail | null> {
  const row = await documentsWithLatest().where("d.id", "=", id).executeTakeFirst();
  if (!row) return null;
  const db = getDb();
  const versions = await db
    .selectFrom("document_versions as v")
    .leftJoin("users as u", "u.id", "v.uploaded_by")
    .select([...VERSION_COLUMNS])
    .where("v.document_id", "=", id)
    .orderBy("v.number", "desc")
    .execute();
  const chosen = await db
    .selectFrom("document_audience as a")
    .innerJoin("users as u", "u.id", "a.user_id")
    .select(["u.id", "u.email", "u.full_name"])
    .where("a.document_id", "=", id)
    .orderBy("u.email")
    .execute();
  return {
    ...toDocument(row),
    versions: versions.map(toVersion),
    chosen: chosen.map((c) => ({ id: c.id, email: c.email, fullName: c.full_name })),
  };
}

/** An administrator's change to the library, as its audit row. */
export function byActor(actor: Actor, action: string, details: Record<string, unknown>): AuditEvent {
  return { actorId: actor.user.id, actorEmail: actor.user.email, action, details, ip: actor.ip };
}
