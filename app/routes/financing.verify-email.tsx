import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { EmailRequestForm } from "~/components/email-request-form";
import { authNotices } from "~/content/account-pages/notices.server";
import { resendVerificationPage } from "~/content/account-pages/resend-verification";
import { accountDoorLoader } from "~/http/account-door.server";
import { handleEmailRequestForm } from "~/http/email-request-form.server";
import { keepRetryAfter } from "~/http/retry-after";
import { verificationSentTo } from "~/http/verification-sent.server";
import { pageMeta } from "~/lib/meta";
import { resendVerificationEmail } from "~/models/account/sign-up.server";

/**
 * 'Send the verification e-mail again': from the login page's refusal, from a refused link, and
 * where sign-up lands, which then says where the link went and for how long it is valid.
 */
export async function loader(args: LoaderFunctionArgs) {
  return { ...(await accountDoorLoader(args)), sentTo: await verificationSentTo(args.request) };
}

export async function action(args: ActionFunctionArgs) {
  return handleEmailRequestForm(args, {
    send: resendVerificationEmail,
    notice: authNotices.verificationSent,
    spamEvent: "resend-verification.honeypot",
  });
}

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  pageMeta(
    data?.sentTo ? resendVerificationPage.sent.heading : resendVerificationPage.title,
    resendVerificationPage.description,
  );

export const headers = keepRetryAfter;

export default function ResendVerificationPage() {
  const { sentTo } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <EmailRequestForm
      id="resend-verification"
      // Where sign-up lands, the page is headed by what to do now; sending again comes second.
      page={
        sentTo ? { ...resendVerificationPage, heading: resendVerificationPage.sent.heading } : resendVerificationPage
      }
      lastResult={actionData?.result}
      defaultEmail={sentTo ?? undefined}
      lead={
        sentTo ? (
          <>
            <p className="auth-card__sent" role="status">
              {resendVerificationPage.sent.text(sentTo)}
            </p>
            <h2 className="auth-card__subheading">{resendVerificationPage.heading}</h2>
          </>
        ) : null
      }
    />
  );
}
