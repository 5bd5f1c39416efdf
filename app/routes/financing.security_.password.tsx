import {
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  json,
} from "@remix-run/node";
import { Form, Link, useActionData } from "@remix-run/react";
import { AuthCard } from "~/components/auth-form";
import { Field, FormErrors } from "~/components/form-field";
import { NewPasswordFields } from "~/components/new-password-fields";
import { passwordChangePage } from "~/content/account-sessions";
import { validationMessages } from "~/content/validation-messages";
import { useLiveValidation } from "~/hooks/use-live-validation";
import { requireUserSession } from "~/http/auth.server";
import { formRefusal, readFormBody } from "~/http/form-body.server";
import { parseSubmission } from "~/http/form-submission.server";
import { keepRetryAfter, refusalInit } from "~/http/retry-after";
import { redirectWithSuccess } from "~/http/toast.server";
import { pageMeta } from "~/lib/meta";
import { changePasswordSchema } from "~/models/account/account-schemas.server";
import { changePassword } from "~/models/account/password-change.server";
import securityStyles from "~/styles/security.css";

const PASSWORD_FIELDS = ["currentPassword", "password", "confirmPassword"];

export const links: LinksFunction = () => [{ rel: "stylesheet", href: securityStyles }];

export const meta: MetaFunction = () => pageMeta(passwordChangePage.title, passwordChangePage.description);

export const headers = keepRetryAfter;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUserSession(request);
  return json(null, { headers: { "Cache-Control": "private, no-store" } });
}

/**
 * The current password is this change's proof, as GitHub and Stripe ask for it: no "Confirm it's you"
 * first (docs/requirements.md, 7c). A wrong one counts towards the login's lock.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const session = await requireUserSession(request);
  const body = await readFormBody(request);
  if (!body.ok) return json({ result: formRefusal(body.message) }, { status: body.status });
  const submission = parseSubmission(body.formData, changePasswordSchema);
  if (submission.status !== "success") {
    return json({ result: submission.reply({ hideFields: PASSWORD_FIELDS }) }, { status: 400 });
  }
  const outcome = await changePassword({
    user: session.user,
    sessionIdHash: session.idHash,
    currentPassword: submission.value.currentPassword,
    newPassword: submission.value.password,
    ip: context.clientIp,
  });
  if (!outcome.ok) {
    const wrongPassword = outcome.status === 401;
    return json(
      {
        result: submission.reply({
          ...(wrongPassword
            ? { fieldErrors: { currentPassword: [outcome.message] } }
            : { formErrors: [outcome.message] }),
          hideFields: PASSWORD_FIELDS,
        }),
      },
      refusalInit(outcome),
    );
  }
  return redirectWithSuccess("/financing/security", passwordChangePage.changed);
}

export default function PasswordChangePage() {
  const actionData = useActionData<typeof action>();
  const { formProps, formErrors, fieldProps } = useLiveValidation("change-password", actionData?.result);
  return (
    <div className="auth-page">
      <AuthCard heading={passwordChangePage.heading} intro={passwordChangePage.intro}>
        <Form method="post" {...formProps}>
          <FormErrors id="change-password-form-error" errors={formErrors} />
          <Field
            {...fieldProps("currentPassword")}
            label={passwordChangePage.currentPassword}
            type="password"
            autoComplete="current-password"
            required
            data-missing={validationMessages.passwordEmpty}
          />
          <NewPasswordFields
            password={fieldProps("password")}
            confirmPassword={fieldProps("confirmPassword")}
            labels={{
              password: passwordChangePage.newPassword,
              confirmPassword: passwordChangePage.confirmNewPassword,
            }}
          />
          <button type="submit" className="button">
            {passwordChangePage.submit}
          </button>
        </Form>
        <p className="auth-links">
          <Link to="/financing/security">{passwordChangePage.backToSecurity}</Link>
        </p>
      </AuthCard>
    </div>
  );
}
