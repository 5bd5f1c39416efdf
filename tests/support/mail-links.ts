/**
 * The links the app e-mails (verification, password reset) and the token each ends with. No
 * imports beyond a type, so the e2e specs, which read the caught mail from files, use them too.
 */
import type { CaughtMail } from "./smtp-catcher";

/** The first link in the e-mail's text that contains `match` (a path such as "/auth/verify/") or matches it. */
export function linkIn(mail: Pick<CaughtMail, "subject" | "text">, match: string | RegExp): string {
  const link = mail.text
    .match(/https?:\/\/\S+/g)
    ?.find((url) => (typeof match === "string" ? url.includes(match) : match.test(url)));
  if (!link) throw new Error(`No link matching ${String(match)} in "${mail.subject}"`);
  return link;
}

/** The token a link in the e-mail ends with: its last path segment. */
export function tokenIn(mail: Pick<CaughtMail, "subject" | "text">, match: string | RegExp): string {
  const link = linkIn(mail, match);
  return link.slice(link.lastIndexOf("/") + 1);
}
