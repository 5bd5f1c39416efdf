import {
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  redirect,
} from "@remix-run/node";
import { ContactForm, contactFormLinks } from "~/components/contact-form";
import { contactPage } from "~/content/contact";
import { contactFormHeaders, handleContactForm } from "~/utils/contact-form.server";
import { getEnv } from "~/utils/env.server";
import { honeypotFields } from "~/utils/honeypot.server";
import { pageMeta } from "~/utils/meta";

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

export const headers = contactFormHeaders;

export const meta: MetaFunction = () => pageMeta(contactPage.title, contactPage.description);

export default function ContactUsPage() {
  return (
    <section className="section contact-page">
      <ContactForm headingLevel={1} />
    </section>
  );
}
