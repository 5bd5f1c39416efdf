import type { LinksFunction, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { LandingPage, landingLinks } from "~/components/landing-page";
import { landingMeta } from "~/content/landing";
import { pageMeta } from "~/lib/meta";
import { action, headers, loader } from "./_site._index.server";

export { action, headers, loader };

export const links: LinksFunction = () => landingLinks;

/** The content never changes while the page is open (a sent message or a team card need not fetch it again). */
export const shouldRevalidate = () => false;

export const meta: MetaFunction = () => pageMeta(landingMeta.home.title, landingMeta.home.description);

export default function IndexPage() {
  const content = useLoaderData<typeof loader>();
  return <LandingPage {...content} />;
}
