import { Form, Link } from "@remix-run/react";
import { financingHeader } from "~/content/account-pages/header";
import { Logo } from "./logo";

/**
 * The portal's header: the logo, and the security settings and LOG OUT only for a signed-in visitor.
 * LOG OUT is a POST form, so a link or a prefetch can never sign anyone out. On a phone the signed-in
 * header keeps one row by showing the logo without the firm's name (auth.css); the link still says it.
 */
export function FinancingHeader({ signedIn }: { signedIn: boolean }) {
  return (
    <header
      className={signedIn ? "site-header financing-header financing-header--signed-in" : "site-header financing-header"}
    >
      <div className="site-header__inner">
        <Logo />
        {signedIn ? (
          <div className="financing-header__actions">
            <Link to="/financing/security" className="financing-header__link">
              {financingHeader.security}
            </Link>
            <Form method="post" action="/financing/logout" className="financing-header__logout">
              <button type="submit" className="button button--secondary">
                {financingHeader.logOut}
              </button>
            </Form>
          </div>
        ) : null}
      </div>
    </header>
  );
}
