import type { ActionFunctionArgs } from "@remix-run/node";
import { contactSection } from "~/content/landing";
import { landingContent } from "~/content/landing.server";
import { handleContactForm } from "~/http/contact-form.server";
import { honeypotFields } from "~/http/honeypot.server";
import { keepRetryAfter } from "~/http/retry-after";

export const loader = async () => ({ ...landingContent(), honeypot: honeypotFields() });

/** The landing page's contact form posts here; a sent message comes back to the form's section. */
export async function action(args: ActionFunctionArgs) {
  return handleContactForm(args, { redirectTo: `/#${contactSection.id}` });
}

export const headers = keepRetryAfter;
