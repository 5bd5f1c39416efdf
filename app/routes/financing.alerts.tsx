import { type ActionFunctionArgs, json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { AlertPreferenceForm } from "~/components/alert-preference-form";
import { AuthCard } from "~/components/auth-form";
import { alertsPage } from "~/content/alerts";
import { alertPreferencePage, changeAlertPreference } from "~/http/alert-preference.server";
import { requireAdmin } from "~/http/auth.server";
import { pageMeta } from "~/lib/meta";
import { alertPreferenceOf } from "~/models/alerts/alert-preferences.server";

export const meta: MetaFunction = () => pageMeta(alertsPage.title, alertsPage.description);

/** The administrator's own choice of alert e-mails (decision 0036). */
export async function loader({ request }: LoaderFunctionArgs) {
  return alertPreferencePage(await requireAdmin(request));
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireAdmin(request);
  const { reply, status } = await changeAlertPreference(request, user, { ip: context.clientIp, signedLink: false });
  return json({ reply, preference: await alertPreferenceOf(user.id) }, { status });
}

export default function AlertsPage() {
  const loaded = useLoaderData<typeof loader>();
  const acted = useActionData<typeof action>();
  return (
    <div className="auth-page">
      <AuthCard heading={alertsPage.heading} intro={alertsPage.intro}>
        <AlertPreferenceForm preference={acted?.preference ?? loaded.preference} reply={acted?.reply} />
        <p>
          <Link to="/financing">{alertsPage.back}</Link>
        </p>
      </AuthCard>
    </div>
  );
}
