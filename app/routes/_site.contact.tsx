import type { ActionFunctionArgs, LinksFunction, MetaFunction } from "@remix-run/node";
import { ContactForm, contactFormLinks } from "~/components/contact-form";
import { contactPage } from "~/content/contact";
import { contactFormHeaders, handleContactForm } from "~/utils/contact-form.server";
import { honeypotFields } from "~/utils/honeypot.server";
import { pageMeta } from "~/utils/meta";

export const links: LinksFunction = () => contactFormLinks;

export const loader = async () => ({ honeypot: honeypotFields() });

export async function action(args: ActionFunctionArgs) {
  return handleContactForm(args, { redirectTo: "/contact" });
}

export const headers = contactFormHeaders;

export const meta: MetaFunction = () => pageMeta(contactPage.title, contactPage.description);

export default function ContactPage() {
  return (
    <section className="section contact-page">
      <ContactForm headingLevel={1} />
    </section>
  );
}
