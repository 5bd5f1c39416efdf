import type { ActionFunctionArgs, LinksFunction, MetaFunction } from "@remix-run/node";
import { ContactForm, contactFormLinks } from "~/components/contact-form";
import { contactPage } from "~/content/contact";
import { handleContactForm } from "~/http/contact-form.server";
import { honeypotFields } from "~/http/honeypot.server";
import { keepRetryAfter } from "~/http/retry-after";
import { pageMeta } from "~/lib/meta";

export const links: LinksFunction = () => contactFormLinks;

export const loader = async () => ({ honeypot: honeypotFields() });

export async function action(args: ActionFunctionArgs) {
  return handleContactForm(args, { redirectTo: "/contact" });
}

export const headers = keepRetryAfter;

export const meta: MetaFunction = () => pageMeta(contactPage.title, contactPage.description);

export default function ContactPage() {
  return (
    <section className="section contact-page">
      <ContactForm headingLevel={1} />
    </section>
  );
}
