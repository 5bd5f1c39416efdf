import { type ActionFunctionArgs, json } from "@remix-run/node";
import { requireAnonymous } from "~/http/auth.server";
import { formRefusal, readFormBody } from "~/http/form-body.server";
import { parseSubmission } from "~/http/form-submission.server";
import { isSpam } from "~/http/honeypot.server";
import { refusalInit } from "~/http/retry-after";
import { redirectWithSuccess } from "~/http/toast.server";
import { forgotPasswordSchema as emailRequestSchema } from "~/models/account/account-schemas.server";
import { log } from "~/server/log.server";

type EmailRequest = {
  /** Sends the e-mail; answers the same whether or not the address has an account. */
  send: (input: {
    email: string;
    ip: string;
  }) => Promise<{ ok: true } | { ok: false; status: number; message: string; retryAfterSeconds?: number }>;
  /** The notice shown on the login page afterwards. */
  notice: string;
  /** The log event name for a honeypot hit. */
  spamEvent: string;
};

/**
 * The action of the pages that ask for a link by e-mail (forgot password,
 * resend verification): honeypot, validation, the use case, then the same
 * answer for every address (docs/requirements.md, "Account and NDA states").
 */
export async function handleEmailRequestForm({ request, context }: ActionFunctionArgs, options: EmailRequest) {
  await requireAnonymous(request);
  const body = await readFormBody(request);
  if (!body.ok) return json({ result: formRefusal(body.message) }, { status: body.status });
  const { formData } = body;
  if (isSpam(formData)) {
    // A bot gets the answer a person would, and nothing is sent.
    log("warn", options.spamEvent, { ip: context.clientIp });
    return redirectWithSuccess("/financing/login", options.notice);
  }

  const submission = parseSubmission(formData, emailRequestSchema);
  if (submission.status !== "success") {
    return json({ result: submission.reply() }, { status: 400 });
  }

  const outcome = await options.send({ email: submission.value.email, ip: context.clientIp });
  if (!outcome.ok) {
    return json({ result: submission.reply({ formErrors: [outcome.message] }) }, refusalInit(outcome));
  }
  return redirectWithSuccess("/financing/login", options.notice);
}
