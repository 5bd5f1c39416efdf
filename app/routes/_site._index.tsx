import type { ActionFunctionArgs, LinksFunction, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { LandingPage, landingLinks } from "~/components/landing-page";
import { contactSection, landingMeta } from "~/content/landing";
import { landingContent } from "~/content/landing.server";
import { contactFormHeaders, handleContactForm } from "~/utils/contact-form.server";
import { honeypotFields } from "~/utils/honeypot.server";
import { pageMeta } from "~/utils/meta";

export const links: LinksFunction = () => landingLinks;

export const loader = async () => ({ ...landingContent(), honeypot: await honeypotFields() });

/** The content never changes while the page is open (a sent message or a team card need not fetch it again). */
export const shouldRevalidate = () => false;

/** The landing page's contact form posts here; a sent message comes back to the form's section. */
export async function action(args: ActionFunctionArgs) {
  return handleContactForm(args, { redirectTo: `/#${contactSection.id}` });
}

export const headers = contactFormHeaders;

export const meta: MetaFunction = () => pageMeta(landingMeta.home.title, landingMeta.home.description);

export default function IndexPage() {
  const content = useLoaderData<typeof loader>();
  return <LandingPage {...content} />;
}
