/**
 * The materials library: the documents administrators upload (drafts) and publish, their versions, who may open each
 * (its audience), and who opened what. Files themselves are blobs (app/server/blob-store.server.ts);
 * what an upload must be is material-file.server.ts's. Every change and every opening is audited.
 */
import { randomUUID } from "node:crypto";
import { materialsMessages } from "~/content/materials";
import { completeBlob, deleteBlob } from "~/server/blob-store.server";
import { now } from "~/server/clock.server";
import { getDb, type DocumentAudienceKind, type DocumentKind, type DocumentsTable } from "~/server/db.server";
import type { OnlyWriter } from "~/server/sql-dialect.server";
import { canSeeMaterials } from "./access.server";
import { changeWithAudit, recordAuditEvent, type AuditEvent } from "./audit.server";
import type { PublicUser } from "./user.server";

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
  createdAt: number;
  updatedAt: number;
  latest: VersionSummary;
}

/** A document as an investor's list shows it: "new" or "updated" since their last visit. */
export interface OpenableDocument extends LibraryDocument {
  mark: "new" | "updated" | null;
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

/** An upload that passed its checks, ready to become a version. */
export interface CheckedUpload {
  blobId: string;
  fileName: string;
  contentType: string;
  size: number;
  sha256: string;
  captionsBlobId?: string | null;
}

const VERSION_COLUMNS = [
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

function toVersion(row: VersionRow): VersionSummary {
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
function documentsWithLatest() {
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
      "d.created_at",
      "d.updated_at",
      ...VERSION_COLUMNS,
    ])
    .orderBy("d.position")
    .orderBy("d.created_at");
}

type DocumentRow = VersionRow & Omit<DocumentsTable, "created_by">;

function toDocument(row: DocumentRow): LibraryDocument {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    kind: row.kind,
    position: row.position,
    audience: row.audience,
    published: row.published === 1,
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

/** Records a visit to the materials page; returns the one before it (null for a first visit). */
export async function recordMaterialsVisit(userId: string): Promise<number | null> {
  const at = now();
  const db = getDb();
  const previous = await db
    .selectFrom("material_visits")
    .select("visited_at")
    .where("user_id", "=", userId)
    .executeTakeFirst();
  await db
    .insertInto("material_visits")
    .values({ user_id: userId, visited_at: at })
    .onConflict((oc) => oc.column("user_id").doUpdateSet({ visited_at: at }))
    .execute();
  return previous ? Number(previous.visited_at) : null;
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

/**
 * Records that the user opened the document's version, in the reading report and the audit trail, before
 * a byte leaves; returns the opening's id (a PDF copy's download id, given when the copy already bears it).
 */
export async function recordOpening(
  user: Pick<PublicUser, "id" | "email">,
  document: LibraryDocument,
  ip: string | null,
  version: VersionSummary = document.latest,
  id: string = randomUUID(),
): Promise<string> {
  // The reading report and the audit trail say the same: the opening is stored with its audit row.
  await changeWithAudit(async (db, record) => {
    await db
      .insertInto("document_opens")
      .values({ id, document_id: document.id, version_id: version.id, user_id: user.id, opened_at: now() })
      .execute();
    record({
      actorId: user.id,
      actorEmail: user.email,
      action: "material.opened",
      details: { documentId: document.id, title: document.title, version: version.number, downloadId: id },
      ip,
    });
  });
  return id;
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

/** An administrator's change to the library, as its audit row. */
function byActor(actor: Actor, action: string, details: Record<string, unknown>): AuditEvent {
  return { actorId: actor.user.id, actorEmail: actor.user.email, action, details, ip: actor.ip };
}

/** Investors (never administrators) among the ids, to check a chosen audience; returns the ids that are not. */
async function nonInvestors(userIds: readonly string[]): Promise<string[]> {
  if (userIds.length === 0) return [];
  const found = await getDb()
    .selectFrom("users")
    .select("id")
    .where("id", "in", [...userIds])
    .where("role", "=", "investor")
    .execute();
  const investors = new Set(found.map((row) => row.id));
  return userIds.filter((id) => !investors.has(id));
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
  changes: { title?: string; description?: string; published?: number },
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

/** Every investor whose NDA is signed, or only the investors chosen (by id; each must be an investor). */
export async function setAudience(
  documentId: string,
  audience: DocumentAudienceKind,
  chosenUserIds: readonly string[],
  actor: Actor,
): Promise<MaterialsResult> {
  const strangers = await nonInvestors(chosenUserIds);
  if (strangers.length > 0) return { ok: false, status: 400, message: materialsMessages.audienceNotInvestors };
  const found = await changeWithAudit(async (trx, record) => {
    const result = await trx
      .updateTable("documents")
      .set({ audience, updated_at: now() })
      .where("id", "=", documentId)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return false;
    await trx.deleteFrom("document_audience").where("document_id", "=", documentId).execute();
    if (audience === "chosen" && chosenUserIds.length > 0)
      await trx
        .insertInto("document_audience")
        .values(chosenUserIds.map((userId) => ({ document_id: documentId, user_id: userId })))
        .execute();
    record(
      byActor(actor, "material.audience_changed", {
        documentId,
        audience,
        chosen: audience === "chosen" ? [...chosenUserIds] : [],
      }),
    );
    return true;
  });
  if (!found) return { ok: false, status: 404, message: materialsMessages.notFound };
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

export interface DocumentReading {
  documentId: string;
  title: string;
  kind: DocumentKind;
  published: boolean;
  /** How many distinct people opened it, and how many times in all. */
  readers: number;
  opens: number;
  firstOpenedAt: number | null;
  lastOpenedAt: number | null;
}

/** For each document of the library, in its order: who opened it, how often, first and last. */
export async function readingReport(): Promise<DocumentReading[]> {
  const rows = await getDb()
    .selectFrom("documents as d")
    .leftJoin("document_reading as t", "t.document_id", "d.id")
    .select([
      "d.id",
      "d.title",
      "d.kind",
      "d.published",
      "t.readers",
      "t.opens",
      "t.first_opened_at as first",
      "t.last_opened_at as last",
    ])
    .orderBy("d.position")
    .orderBy("d.created_at")
    .execute();
  return rows.map((row) => ({
    documentId: row.id,
    title: row.title,
    kind: row.kind,
    published: row.published === 1,
    readers: Number(row.readers ?? 0),
    opens: Number(row.opens ?? 0),
    firstOpenedAt: row.first === null ? null : Number(row.first),
    lastOpenedAt: row.last === null ? null : Number(row.last),
  }));
}

export interface ReaderOfDocument {
  userId: string;
  email: string;
  fullName: string;
  opens: number;
  firstOpenedAt: number;
  lastOpenedAt: number;
}

/** How many people opened one document, and how many times in all. */
export async function readerTotals(documentId: string): Promise<{ readers: number; opens: number }> {
  const row = await getDb()
    .selectFrom("document_reading")
    .select(["readers", "opens"])
    .where("document_id", "=", documentId)
    .executeTakeFirst();
  return { readers: Number(row?.readers ?? 0), opens: Number(row?.opens ?? 0) };
}

/**
 * Who opened one document: each person, how often, first and last, the latest first; all of them, or one
 * page, walked from the index in that order, so only the page's people are looked up.
 */
export async function readersOf(
  documentId: string,
  page?: { limit: number; offset: number },
): Promise<ReaderOfDocument[]> {
  const db = getDb();
  let readers = db
    .selectFrom("document_readers")
    .select(["user_id", "opens", "first_opened_at", "last_opened_at"])
    .where("document_id", "=", documentId)
    .orderBy("last_opened_at", "desc")
    .orderBy("user_id", "desc");
  if (page) readers = readers.limit(page.limit).offset(page.offset);
  const rows = await db
    .selectFrom(readers.as("r"))
    .innerJoin("users as u", "u.id", "r.user_id")
    .select(["u.id", "u.email", "u.full_name", "r.opens", "r.first_opened_at", "r.last_opened_at"])
    .orderBy("r.last_opened_at", "desc")
    .orderBy("u.id", "desc")
    .execute();
  return rows.map((row) => ({
    userId: row.id,
    email: row.email,
    fullName: row.full_name,
    opens: Number(row.opens),
    firstOpenedAt: Number(row.first_opened_at),
    lastOpenedAt: Number(row.last_opened_at),
  }));
}

export interface ReadingOfInvestor {
  documentId: string;
  title: string;
  opens: number;
  firstOpenedAt: number;
  lastOpenedAt: number;
}

/** What one person opened: each document, how often, first and last, in the library's order. */
export async function readingsOf(userId: string): Promise<ReadingOfInvestor[]> {
  const rows = await getDb()
    .selectFrom("document_readers as r")
    .innerJoin("documents as d", "d.id", "r.document_id")
    .select(["d.id", "d.title", "r.opens", "r.first_opened_at", "r.last_opened_at"])
    .where("r.user_id", "=", userId)
    .orderBy("d.position")
    .orderBy("d.created_at")
    .execute();
  return rows.map((row) => ({
    documentId: row.id,
    title: row.title,
    opens: Number(row.opens),
    firstOpenedAt: Number(row.first_opened_at),
    lastOpenedAt: Number(row.last_opened_at),
  }));
}
