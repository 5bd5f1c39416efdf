import type { LinksFunction, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { TeamSection, teamLinks } from "~/components/team-section";
import { teamMembers } from "~/content/team";
import { pageMeta } from "~/lib/meta";

export const links: LinksFunction = () => teamLinks;

/** The team travels as data, not as script; it never changes while the page is open. */
export const loader = () => ({ team: teamMembers });

export const shouldRevalidate = () => false;

export const meta: MetaFunction = () =>
  pageMeta(
    "About Us",
    "Who we are: the team building the firm's ATS for U.S. stocks and ETFs with instant settlement.",
  );

export default function AboutUsPage() {
  const { team } = useLoaderData<typeof loader>();
  return <TeamSection members={team} headingLevel={1} />;
}
