import type { ActionFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData } from "@remix-run/react";
import { EmailRequestForm } from "~/components/email-request-form";
import { forgotPasswordPage } from "~/content/account-pages/forgot-password";
import { authNotices } from "~/content/account-pages/notices.server";
import { accountDoorLoader } from "~/http/account-door.server";
import { handleEmailRequestForm } from "~/http/email-request-form.server";
import { keepRetryAfter } from "~/http/retry-after";
import { pageMeta } from "~/lib/meta";
import { requestPasswordReset } from "~/models/account/password-reset.server";

export const loader = accountDoorLoader;

export async function action(args: ActionFunctionArgs) {
  return handleEmailRequestForm(args, {
    send: requestPasswordReset,
    notice: authNotices.resetSent,
    spamEvent: "forgot-password.honeypot",
  });
}

export const meta: MetaFunction = () => pageMeta(forgotPasswordPage.title, forgotPasswordPage.description);

export const headers = keepRetryAfter;

export default function ForgotPasswordPage() {
  const actionData = useActionData<typeof action>();
  return <EmailRequestForm id="forgot-password" page={forgotPasswordPage} lastResult={actionData?.result} />;
}
