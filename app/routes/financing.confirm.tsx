import {
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  json,
} from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { AuthCard } from "~/components/auth-form";
import { reauthenticatedUntil, ReauthenticationForm } from "~/components/reauthentication-form";
import { sudoContent } from "~/content/sudo";
import { requireUserSession } from "~/http/auth.server";
import { formRefusal, readFormBody } from "~/http/form-body.server";
import { formLevelBeyond, parseSubmission } from "~/http/form-submission.server";
import { reauthenticationState } from "~/http/reauthentication.server";
import { keepRetryAfter, refusalInit } from "~/http/retry-after";
import { redirectWithSuccess } from "~/http/toast.server";
import { safeReturnTo } from "~/lib/investor-table";
import { pageMeta } from "~/lib/meta";
import { reauthenticate } from "~/models/account/reauthentication.server";
import { reauthenticationSchema } from "~/models/second-factor/second-factor-schemas.server";
import { secondFactorStatus } from "~/models/second-factor/second-factor.server";
import securityStyles from "~/styles/security.css";

const NO_STORE = { "Cache-Control": "private, no-store" };
/** Fields never sent back to the page. */
const SECRET_FIELDS = ["password", "code", "passkeyAnswer"];

export const links: LinksFunction = () => [{ rel: "stylesheet", href: securityStyles }];

export const meta: MetaFunction = () => pageMeta(sudoContent.title, sudoContent.description);

export const headers = keepRetryAfter;

function returnToOf(request: Request) {
  return safeReturnTo(new URL(request.url).searchParams.get("returnTo"));
}

/**
 * "Confirm it's you" on a page of its own: where a change that needs it (an administrator's change to
 * someone's access, an investor's download of their data) sends the user first.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const session = await requireUserSession(request);
  const status = await secondFactorStatus(session.user.id);
  return json(
    { returnTo: returnToOf(request), reauthentication: reauthenticationState(session, status) },
    { headers: NO_STORE },
  );
}

export async function action({ request, context }: ActionFunctionArgs) {
  const session = await requireUserSession(request);
  const body = await readFormBody(request);
  if (!body.ok) return json({ result: formRefusal(body.message) }, { status: body.status });
  const submission = parseSubmission(body.formData, reauthenticationSchema);
  if (submission.status !== "success") {
    return json(
      { result: formLevelBeyond(submission.reply({ hideFields: SECRET_FIELDS }), ["password", "code"]) },
      { status: 400 },
    );
  }
  const outcome = await reauthenticate({
    user: session.user,
    sessionIdHash: session.idHash,
    proof: submission.value,
    ip: context.clientIp,
  });
  if (!outcome.ok) {
    return json(
      { result: submission.reply({ formErrors: [outcome.message], hideFields: SECRET_FIELDS }) },
      refusalInit(outcome),
    );
  }
  return redirectWithSuccess(returnToOf(request), sudoContent.confirmed);
}

export default function ConfirmPage() {
  const { returnTo, reauthentication } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <div className="auth-page">
      <AuthCard heading={sudoContent.heading}>
        {reauthentication.until ? <p role="status">{reauthenticatedUntil(reauthentication.until)}</p> : null}
        <ReauthenticationForm
          reply={actionData?.result}
          asksForCode={reauthentication.asksForCode}
          codeFromApp={reauthentication.codeFromApp}
          offersPasskey={reauthentication.offersPasskey}
          minutes={reauthentication.minutes}
          intro={sudoContent.intro}
        />
        <p>
          <Link to={returnTo}>{sudoContent.back}</Link>
        </p>
      </AuthCard>
    </div>
  );
}
