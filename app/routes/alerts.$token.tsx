import {
  type ActionFunctionArgs,
  json,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { useActionData, useLoaderData, useRouteError, isRouteErrorResponse } from "@remix-run/react";
import { AlertPreferenceForm } from "~/components/alert-preference-form";
import { AuthCard } from "~/components/auth-form";
import { FinancingHeader } from "~/components/financing-header";
import { SiteFooter } from "~/components/site-footer";
import { alertsPage } from "~/content/alerts";
import { administratorOfAlertLink, alertPreferencePage, changeAlertPreference } from "~/http/alert-preference.server";
import { pageMeta } from "~/lib/meta";
import { alertPreferenceOf } from "~/models/alerts/alert-preferences.server";
import authStyles from "~/styles/auth.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: authStyles }];

export const meta: MetaFunction = () => [
  ...pageMeta(alertsPage.title, alertsPage.description),
  { name: "robots", content: "noindex" },
];

/**
 * An alert e-mail's link to its administrator's choice: the signed token is the guard, so no sign-in is
 * needed. A mail client's one-click POST (RFC 8058) turns the alerts off.
 */
export async function loader({ params }: LoaderFunctionArgs) {
  return alertPreferencePage(await administratorOfAlertLink(params.token ?? ""));
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const user = await administratorOfAlertLink(params.token ?? "");
  const { reply, status } = await changeAlertPreference(request, user, { ip: context.clientIp, signedLink: true });
  return json(
    { reply, preference: await alertPreferenceOf(user.id) },
    { status, headers: { "Cache-Control": "no-store" } },
  );
}

function Page({ children }: { children: React.ReactNode }) {
  return (
    <>
      <FinancingHeader signedIn={false} />
      <main id="main" className="page">
        <div className="auth-page">{children}</div>
      </main>
      <SiteFooter />
    </>
  );
}

export default function AlertLinkPage() {
  const loaded = useLoaderData<typeof loader>();
  const acted = useActionData<typeof action>();
  return (
    <Page>
      <AuthCard heading={alertsPage.heading} intro={alertsPage.signedLinkIntro(loaded.email)}>
        <AlertPreferenceForm preference={acted?.preference ?? loaded.preference} reply={acted?.reply} />
      </AuthCard>
    </Page>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const message =
    isRouteErrorResponse(error) && typeof error.data?.message === "string"
      ? error.data.message
      : alertsPage.badLinkFallback;
  return (
    <Page>
      <AuthCard heading={alertsPage.heading}>
        <p role="alert">{message}</p>
      </AuthCard>
    </Page>
  );
}
