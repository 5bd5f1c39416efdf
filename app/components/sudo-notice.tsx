import { Link } from "@remix-run/react";
import { sudoContent } from "~/content/sudo";
import { closingTime } from "./reauthentication-form";

/**
 * On a page whose actions change someone's access: until when they are open, or the link that opens
 * them ("Confirm it's you", then back here). `notice` says which of the page's actions ask.
 */
export function SudoNotice({
  sudo,
  notice = sudoContent.notice,
}: {
  sudo: { until: string | null; confirmHref: string };
  notice?: string;
}) {
  if (sudo.until) return <p className="sudo-notice">{sudoContent.confirmedUntil(closingTime(sudo.until))}</p>;
  return (
    <p className="sudo-notice">
      {notice} <Link to={sudo.confirmHref}>{sudoContent.confirmLink}</Link>
    </p>
  );
}

/** Beside a refusal for want of a fresh confirmation: the way to give it. */
export function ConfirmFirstLink({ href }: { href: string | null | undefined }) {
  if (!href) return null;
  return (
    <p>
      <Link to={href}>{sudoContent.confirmLink}</Link>
    </p>
  );
}

/** A refused action's message above the page's forms, with the way to confirm it's you when that is what it wants. */
export function RefusalAlert({ message, confirmHref }: { message: string; confirmHref?: string }) {
  return (
    <div className="form-error" role="alert">
      <p>
        {message} {confirmHref ? <Link to={confirmHref}>{sudoContent.confirmLink}</Link> : null}
      </p>
    </div>
  );
}
