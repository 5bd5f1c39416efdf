import { Link } from "@remix-run/react";
import { sudoContent } from "~/content/sudo";
import { closingTime } from "./reauthentication-form";

/**
 * On a page whose actions change someone's access: until when they are open, or the link that opens
 * them ("Confirm it's you", then back here).
 */
export function SudoNotice({ sudo }: { sudo: { until: string | null; confirmHref: string } }) {
  if (sudo.until) return <p className="sudo-notice">{sudoContent.confirmedUntil(closingTime(sudo.until))}</p>;
  return (
    <p className="sudo-notice">
      {sudoContent.notice} <Link to={sudo.confirmHref}>{sudoContent.confirmLink}</Link>
    </p>
  );
}
