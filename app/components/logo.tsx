import { Link } from "@remix-run/react";
import { firm } from "~/content/firm";

export function Logo() {
  return (
    <Link to="/" className="logo" aria-label={`${firm.shortName} home`}>
      <img src="/images/logo.svg" alt="" width="36" height="36" />
      <span className="logo__name">{firm.shortName}</span>
    </Link>
  );
}
