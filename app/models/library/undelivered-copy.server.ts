/**
 * A stamped copy recorded as opened whose client went away before its last byte was sent: it leaves the
 * reading report, and the audit trail (which keeps the opening's row, as it keeps every row) says it was
 * not delivered, in the same transaction (decision 0027).
 */
import type { PublicUser } from "~/models/account/user.server";
import { changeWithAudit } from "~/models/audit/audit.server";
import type { LibraryDocument, VersionSummary } from "./library-documents.server";

export async function recordUndeliveredOpening(
  user: Pick<PublicUser, "id" | "email">,
  document: Pick<LibraryDocument, "id" | "title">,
  version: Pick<VersionSummary, "number">,
  downloadId: string,
  ip: string | null,
) {
  await changeWithAudit(async (db, record) => {
    await db.deleteFrom("document_opens").where("id", "=", downloadId).execute();
    record({
      actorId: user.id,
      actorEmail: user.email,
      action: "material.undelivered",
      details: { documentId: document.id, title: document.title, version: version.number, downloadId },
      ip,
    });
  });
}
