import type { LinksFunction, MetaFunction } from "@remix-run/node";
import { TeamSection, teamLinks } from "~/components/team-section";
import { pageMeta } from "~/utils/meta";

export const links: LinksFunction = () => teamLinks;

export const meta: MetaFunction = () =>
  pageMeta("About Us", "Who we are: the team building the firm's ATS for U.S. stocks and ETFs with instant settlement.");

export default function AboutUsPage() {
  return <TeamSection headingLevel={1} />;
}
