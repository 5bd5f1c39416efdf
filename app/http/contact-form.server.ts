import { json, type ActionFunctionArgs } from "@remix-run/node";
import { contactForm } from "~/content/contact";
import type { FormReply } from "~/lib/form-reply";
import { contactSchema } from "~/models/contact/contact-schema.server";
import { mailContactMessage, saveContactMessage } from "~/models/contact/contact.server";
import { log } from "~/server/log.server";
import { countRateLimitRefusal } from "~/server/metrics.server";
import { hitRateLimit, type RateLimitRule } from "~/server/rate-limit.server";
import { formRefusal, readFormBody } from "./form-body.server";
import { parseSubmission } from "./form-submission.server";
import { honeypotFieldNames, isSpam } from "./honeypot.server";
import { refusalInit } from "./retry-after";
import { redirectWithSuccess } from "./toast.server";

/** Messages one client address may send before it has to wait. */
export const CONTACT_RATE_LIMIT: RateLimitRule = { limit: 5, windowMs: 10 * 60 * 1000 };

export type ContactFormResult = FormReply;

/**
 * The contact form's action, shared by every page that shows the form
 * (/contact, /contactus, the landing page): each route's own action calls it.
 * Bad input of any kind ends in a 4xx with a message for the form; only a
 * valid message from a person is stored and mailed.
 */
export async function handleContactForm({ request, context }: ActionFunctionArgs, options: { redirectTo: string }) {
  const { errors } = contactForm;

  const body = await readFormBody(request);
  if (!body.ok) return formError(body.message, body.status);
  const { formData } = body;

  if (isSpam(formData, { fieldsRequired: true })) {
    log("info", "contact.spam");
    return formError(errors.refused, 400);
  }

  const submission = parseSubmission(formData, contactSchema);
  if (submission.status !== "success") {
    return json(submission.reply({ hideFields: honeypotFieldNames }), { status: 400 });
  }

  const limit = await hitRateLimit(`contact:${context.clientIp}`, CONTACT_RATE_LIMIT);
  if (!limit.allowed) {
    countRateLimitRefusal("contact");
    const minutes = Math.ceil(limit.retryAfterSeconds / 60);
    return json(
      submission.reply({ formErrors: [errors.tooMany(minutes)], hideFields: honeypotFieldNames }),
      refusalInit({ status: 429, retryAfterSeconds: limit.retryAfterSeconds }),
    );
  }

  const { firstName, lastName, email, message } = submission.value;
  const saved = await saveContactMessage({ firstName, lastName, email, message, ip: context.clientIp ?? null });
  // A failed e-mail leaves the message queued (mailed_at null) for `npm run mail:retry`; the visitor's answer is the same.
  const mailed = await mailContactMessage(saved);
  log("info", "contact.received", { id: saved.id, mailed });

  return redirectWithSuccess(options.redirectTo, contactForm.sent);
}

function formError(message: string, status: number) {
  const result: ContactFormResult = formRefusal(message);
  return json(result, { status });
}
