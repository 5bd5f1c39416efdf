import type { ActionFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData } from "@remix-run/react";
import { keepRetryAfter } from "~/components/auth-form";
import { EmailRequestForm } from "~/components/email-request-form";
import { authNotices } from "~/content/account-pages/notices.server";
import { resendVerificationPage } from "~/content/account-pages/resend-verification";
import { resendVerificationEmail } from "~/models/account.server";
import { accountDoorLoader } from "~/utils/account-door.server";
import { handleEmailRequestForm } from "~/utils/email-request-form.server";
import { pageMeta } from "~/utils/meta";

/** 'Send the verification e-mail again': from the login page's refusal, or from a refused link. */
export const loader = accountDoorLoader;

export async function action(args: ActionFunctionArgs) {
  return handleEmailRequestForm(args, {
    send: resendVerificationEmail,
    notice: authNotices.verificationSent,
    spamEvent: "resend-verification.honeypot",
  });
}

export const meta: MetaFunction = () => pageMeta(resendVerificationPage.title, resendVerificationPage.description);

export const headers = keepRetryAfter;

export default function ResendVerificationPage() {
  const actionData = useActionData<typeof action>();
  return <EmailRequestForm id="resend-verification" page={resendVerificationPage} lastResult={actionData?.result} />;
}
