/**
 * Which of an administrator's library changes widen what investors can read, and so run only in "sudo
 * mode" (app/http/sudo.server.ts, docs/decisions/0029): publishing; on a published document, a new version
 * or an audience that lets someone new in. A draft's changes reach nobody until it is published, which asks.
 */
import type { LiveSession } from "~/models/account/session.server";
import type { DocumentAudienceKind, LibraryDocumentDetail } from "~/models/library/library-documents.server";
import { confirmHref, sudoRefusal } from "./sudo.server";

type Document = Pick<LibraryDocumentDetail, "published" | "audience" | "chosen">;

export type LibraryChange =
  | { kind: "publish" }
  | { kind: "version" }
  | { kind: "audience"; audience: DocumentAudienceKind; chosenUserIds: readonly string[] };

/** Whether anyone could read, after the change, something they could not before it. */
export function widensReaders(document: Document, change: LibraryChange): boolean {
  if (change.kind === "publish") return true;
  if (!document.published) return false;
  if (change.kind === "version") return true;
  if (change.audience === "signed") return document.audience !== "signed";
  // Every investor on a chosen list has a signed NDA to open it: from "signed" to "chosen" only narrows.
  if (document.audience === "signed") return false;
  const before = new Set(document.chosen.map((investor) => investor.id));
  return change.chosenUserIds.some((id) => !before.has(id));
}

/** Null when the change may run; otherwise the 403 "Confirm it's you first", with the way back to `returnTo`. */
export function librarySudoRefusal(
  session: Pick<LiveSession, "reauthenticatedAt">,
  document: Document,
  change: LibraryChange,
  returnTo: string,
) {
  if (!widensReaders(document, change)) return null;
  const refusal = sudoRefusal(session);
  return refusal ? { ...refusal, confirmHref: confirmHref(returnTo) } : null;
}
