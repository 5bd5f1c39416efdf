import type { LinksFunction, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { AuthCard } from "~/components/auth-form";
import { FormErrors } from "~/components/form-field";
import { sessionsPage } from "~/content/account-sessions";
import { formatRegistrationTime } from "~/lib/investor-table";
import { pageMeta } from "~/lib/meta";
import type { SignedInClient } from "~/models/account/account-sessions.server";
import sessionsStyles from "~/styles/account-sessions.css";
import securityStyles from "~/styles/security.css";
import { action, loader } from "./financing.security_.sessions.server";

export { action, loader };

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: securityStyles },
  { rel: "stylesheet", href: sessionsStyles },
];

export const meta: MetaFunction = () => pageMeta(sessionsPage.title, sessionsPage.description);

/** Where the account is signed in: each browser and API sign-in, and a way to end each, or all but this one. */
export default function SessionsPage() {
  const { sessions, apiAccess } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const others = sessions.some((session) => !session.current) || apiAccess.length > 0;
  return (
    <div className="auth-page">
      <AuthCard heading={sessionsPage.heading} intro={sessionsPage.intro}>
        <FormErrors id="sessions-form-error" errors={actionData ? [actionData.message] : undefined} />

        <section className="security-section" aria-labelledby="sessions-web">
          <h2 id="sessions-web">{sessionsPage.webHeading}</h2>
          <ul className="signed-in-list">
            {sessions.map((session) => (
              <SignedIn key={session.id} client={session} kind="session" />
            ))}
          </ul>
        </section>

        <section className="security-section" aria-labelledby="sessions-api">
          <h2 id="sessions-api">{sessionsPage.apiHeading}</h2>
          <p>{sessionsPage.apiIntro}</p>
          {apiAccess.length === 0 ? <p>{sessionsPage.apiNone}</p> : null}
          <ul className="signed-in-list">
            {apiAccess.map((family) => (
              <SignedIn key={family.id} client={family} kind="api" />
            ))}
          </ul>
        </section>

        <section className="security-section" aria-labelledby="sessions-others">
          <h2 id="sessions-others">{sessionsPage.othersHeading}</h2>
          {others ? (
            <Form method="post">
              <p>{sessionsPage.othersIntro}</p>
              <input type="hidden" name="intent" value="sign-out-others" />
              <button type="submit" className="button button--secondary">
                {sessionsPage.signOutOthers}
              </button>
            </Form>
          ) : (
            <p>{sessionsPage.noOthers}</p>
          )}
        </section>

        <p className="auth-links">
          <Link to="/financing/security">{sessionsPage.backToSecurity}</Link>
        </p>
      </AuthCard>
    </div>
  );
}

/** One browser or API sign-in: what it is, its facts, and the form that ends it (none for this browser). */
function SignedIn({ client, kind }: { client: SignedInClient; kind: "session" | "api" }) {
  const { facts } = sessionsPage;
  const signedIn = formatRegistrationTime(client.signedInAt);
  return (
    <li className="signed-in">
      <p className="signed-in__name">
        {client.device}
        {client.current ? <span className="signed-in__current">{sessionsPage.thisBrowser}</span> : null}
      </p>
      <dl className="signed-in__facts">
        <dt>{facts.address}</dt>
        <dd>{client.ip ?? sessionsPage.unknown}</dd>
        <dt>{facts.signedIn}</dt>
        <dd>{signedIn}</dd>
        <dt>{kind === "api" ? facts.lastUsed : facts.lastSeen}</dt>
        <dd>{formatRegistrationTime(client.lastSeenAt)}</dd>
      </dl>
      {client.current ? null : (
        <Form method="post">
          <input type="hidden" name="intent" value={kind === "api" ? "revoke" : "sign-out"} />
          <input type="hidden" name={kind === "api" ? "familyId" : "sessionId"} value={client.id} />
          <button
            type="submit"
            className="button button--secondary"
            aria-label={
              kind === "api"
                ? sessionsPage.revokeLabel(client.device, signedIn)
                : sessionsPage.signOutLabel(client.device, signedIn)
            }
          >
            {kind === "api" ? sessionsPage.revoke : sessionsPage.signOut}
          </button>
        </Form>
      )}
    </li>
  );
}
