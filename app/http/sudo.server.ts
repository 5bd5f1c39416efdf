/**
 * "Sudo mode" for administrators (docs/decisions/0021): an action that changes someone's access (a
 * correction, a second factor's reset, a deletion, an invitation, a role removed) runs only if the
 * acting administrator confirmed their password and second factor in this session within the last
 * REAUTHENTICATION_MS. The confirmation itself is the security page's (app/models/account/reauthentication.server.ts),
 * on a page of its own (/financing/confirm) that sends the administrator back where they came from.
 */
import { sudoContent } from "~/content/sudo";
import { safeReturnTo } from "~/lib/investor-table";
import { isReauthenticated, type LiveSession, reauthenticatedUntil } from "~/models/account/session.server";
import type { Failure } from "~/models/failure";

export const CONFIRM_PATH = "/financing/confirm";

export type SudoState = {
  /** When the confirmed changes close again, as ISO 8601; null when the administrator must confirm first. */
  until: string | null;
  /** The confirmation page, with the way back to this page. */
  confirmHref: string;
};

export function confirmHref(returnTo: string): string {
  return `${CONFIRM_PATH}?${new URLSearchParams({ returnTo: safeReturnTo(returnTo) })}`;
}

/** What a page that offers such actions shows about them. */
export function sudoState(session: Pick<LiveSession, "reauthenticatedAt">, returnTo: string): SudoState {
  return {
    until: reauthenticatedUntil(session),
    confirmHref: confirmHref(returnTo),
  };
}

/** Null when the action may run; otherwise the 403 that says to confirm first. */
export function sudoRefusal(session: Pick<LiveSession, "reauthenticatedAt">): Failure<403> | null {
  return isReauthenticated(session) ? null : { ok: false, status: 403, message: sudoContent.needed };
}
