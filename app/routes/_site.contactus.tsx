import {
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  redirect,
} from "@remix-run/node";
import { ContactForm, contactFormLinks } from "~/components/contact-form";
import { contactPage } from "~/content/contact";
import { handleContactForm } from "~/http/contact-form.server";
import { honeypotFields } from "~/http/honeypot.server";
import { keepRetryAfter } from "~/http/retry-after";
import { pageMeta } from "~/lib/meta";
import { getEnv } from "~/server/env.server";

export const links: LinksFunction = () => contactFormLinks;

/** With CONTACT_FORM_URL set, the firm's external form service takes the visitor instead. */
export async function loader(_: LoaderFunctionArgs) {
  const { contactFormUrl } = getEnv();
  if (contactFormUrl) return redirect(contactFormUrl, 302);
  return { honeypot: honeypotFields() };
}

export async function action(args: ActionFunctionArgs) {
  return handleContactForm(args, { redirectTo: "/contactus" });
}

export const headers = keepRetryAfter;

export const meta: MetaFunction = () => pageMeta(contactPage.title, contactPage.description);

export default function ContactUsPage() {
  return (
    <section className="section contact-page">
      <ContactForm headingLevel={1} />
    </section>
  );
}
