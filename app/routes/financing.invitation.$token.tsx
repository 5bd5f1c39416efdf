import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { AuthCard } from "~/components/auth-form";
import { Field, FormErrors } from "~/components/form-field";
import { NewPasswordFields } from "~/components/new-password-fields";
import { authLabels } from "~/content/account-pages/common";
import { invitationPage } from "~/content/administrators";
import { useLiveValidation } from "~/hooks/use-live-validation";
import { createUserSession, ENROL_PATH } from "~/http/auth.server";
import { formRefusal, readFormBody } from "~/http/form-body.server";
import { parseSubmission } from "~/http/form-submission.server";
import { keepRetryAfter, refusalInit } from "~/http/retry-after";
import { pageMeta } from "~/lib/meta";
import { resetPasswordSchema } from "~/models/account/account-schemas.server";
import { acceptInvitation, findInvitationEmail } from "~/models/administrators/admin-invitation.server";

const PASSWORD_FIELDS = ["password", "confirmPassword"];
const FORM_ID = "accept-invitation";

/**
 * The token in the URL is this page's guard, not a session: whoever holds the e-mailed link may
 * become an administrator, once, within its 72 hours. A link that is unknown, used, revoked or
 * expired is refused when the page opens, with 410.
 */
export async function loader({ params }: LoaderFunctionArgs) {
  const email = await findInvitationEmail(params.token);
  return email
    ? json({ screen: "form" as const, email })
    : json({ screen: "refused" as const, email: null }, { status: 410 });
}

/** The password (the same rules as sign-up and reset), then straight to the second factor's enforced set-up. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const body = await readFormBody(request);
  if (!body.ok) return json({ result: formRefusal(body.message), linkRefused: false }, { status: body.status });
  const submission = parseSubmission(body.formData, resetPasswordSchema);
  if (submission.status !== "success") {
    return json({ result: submission.reply({ hideFields: PASSWORD_FIELDS }), linkRefused: false }, { status: 400 });
  }
  const outcome = await acceptInvitation({
    token: params.token ?? "",
    password: submission.value.password,
    ip: context.clientIp,
  });
  if (!outcome.ok) {
    return json(
      {
        result: submission.reply({ formErrors: [outcome.message], hideFields: PASSWORD_FIELDS }),
        linkRefused: outcome.status !== 429,
      },
      refusalInit(outcome),
    );
  }
  // A session that can only set up the second factor, as after an administrator's password-only sign-in.
  return createUserSession({
    user: outcome.user,
    authMethod: "password",
    request,
    ip: context.clientIp,
    enrolmentOnly: true,
    redirectTo: ENROL_PATH,
  });
}

export const meta: MetaFunction = () => pageMeta(invitationPage.title, invitationPage.description);

export const headers = keepRetryAfter;

export default function InvitationPage() {
  const { screen, email } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { formProps, formErrors, fieldProps } = useLiveValidation(FORM_ID, actionData?.result);

  if (screen === "refused" || email === null) {
    return (
      <div className="auth-page">
        <AuthCard heading={invitationPage.heading}>
          <p role="alert">{invitationPage.refused}</p>
          <Link to="/financing/login" className="button">
            {invitationPage.toLogin}
          </Link>
        </AuthCard>
      </div>
    );
  }

  return (
    <div className="auth-page">
      <AuthCard heading={invitationPage.heading} intro={invitationPage.intro(email)}>
        <Form method="post" {...formProps}>
          <FormErrors id={`${FORM_ID}-form-error`} errors={formErrors} />
          {/* The address the account will have, for password managers to store the new password under. */}
          <Field
            id={`${FORM_ID}-email`}
            name="username"
            label={authLabels.email}
            type="email"
            autoComplete="username"
            value={email}
            readOnly
          />
          <NewPasswordFields password={fieldProps("password")} confirmPassword={fieldProps("confirmPassword")} />
          <button type="submit" className="button">
            {invitationPage.submit}
          </button>
        </Form>
        {actionData?.linkRefused ? (
          <p>
            <Link to="/financing/login">{invitationPage.toLogin}</Link>
          </p>
        ) : null}
      </AuthCard>
    </div>
  );
}
