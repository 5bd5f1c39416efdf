import { type LinksFunction, type LoaderFunctionArgs, type MetaFunction, json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { AuthCard } from "~/components/auth-form";
import { FinancingHeader } from "~/components/financing-header";
import { SiteFooter } from "~/components/site-footer";
import { NoScriptRefresh, VerifyCountdown } from "~/components/verify-countdown";
import { accountMessages } from "~/content/account-messages";
import { verifyPage } from "~/content/account-pages/verify";
import { getSessionUser } from "~/http/auth.server";
import { pageMeta } from "~/lib/meta";
import { verifyEmail } from "~/models/account/sign-up.server";
import authStyles from "~/styles/auth.css";

const LOGIN_URL = "/financing/login";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: authStyles }];

/**
 * The e-mailed link itself verifies (docs/requirements.md, "Investor portal pages"); the token is the
 * guard, so no session is required, and the session only decides the header.
 */
export async function loader({ params, request }: LoaderFunctionArgs) {
  const [outcome, user] = await Promise.all([verifyEmail(params.token ?? ""), getSessionUser(request)]);
  const signedIn = user !== null;
  if (outcome.ok) return json({ verified: true as const, message: accountMessages.emailVerified, signedIn });
  return json({ verified: false as const, message: outcome.message, signedIn }, { status: 400 });
}

/** A token is single use: running the loader again (after LOG OUT, say) would only show a refusal. */
export const shouldRevalidate = () => false;

export const meta: MetaFunction = () => pageMeta(verifyPage.title, verifyPage.description);

export default function VerifyEmailPage() {
  const { verified, message, signedIn } = useLoaderData<typeof loader>();
  return (
    <>
      <FinancingHeader signedIn={signedIn} />
      <main id="main" className="page">
        <div className="auth-page">
          {verified ? (
            <AuthCard heading={verifyPage.successHeading}>
              <div className="verify-result">
                <NoScriptRefresh to={LOGIN_URL} />
                <p role="status">{message}</p>
                <VerifyCountdown to={LOGIN_URL} />
                <p>
                  <Link to={LOGIN_URL}>{verifyPage.loginNow}</Link>
                </p>
              </div>
            </AuthCard>
          ) : (
            <AuthCard heading={verifyPage.failureHeading}>
              <div className="verify-result">
                <p role="alert">{message}</p>
                <p>
                  <Link to="/financing/verify-email" className="button">
                    {verifyPage.requestNewLink}
                  </Link>
                </p>
              </div>
            </AuthCard>
          )}
        </div>
      </main>
      <SiteFooter />
    </>
  );
}
