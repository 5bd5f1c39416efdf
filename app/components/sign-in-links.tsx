import { Link } from "@remix-run/react";
import { passwordChangePage, sessionsPage } from "~/content/account-sessions";

/** The security page's way to the password's change and to where the account is signed in. */
export function SignInLinks() {
  return (
    <section className="security-section" aria-labelledby="security-sign-in">
      <h2 id="security-sign-in">{sessionsPage.signInHeading}</h2>
      <ul className="security-links">
        <li>
          <Link to="/financing/security/password">{passwordChangePage.link}</Link>
        </li>
        <li>
          <Link to="/financing/security/sessions">{sessionsPage.link}</Link>
        </li>
      </ul>
    </section>
  );
}
