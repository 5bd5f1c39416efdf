import type { LinksFunction, MetaFunction } from "@remix-run/node";
import { disclaimerPage as page } from "~/content/disclaimer";
import { pageMeta } from "~/lib/meta";
import legalStyles from "~/styles/legal.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: legalStyles }];

export const meta: MetaFunction = () => pageMeta(page.title, page.description);

export default function DisclaimerPage() {
  const { membership } = page;
  return (
    <article className="section prose">
      <h1>{page.heading}</h1>
      <p>{page.ownership}</p>
      <p>
        {membership.lead}{" "}
        <a href={membership.regulator.url} rel="noopener noreferrer external">
          {membership.regulator.name}
        </a>{" "}
        and{" "}
        <a href={membership.investorProtection.url} rel="noopener noreferrer external">
          {membership.investorProtection.name}
        </a>
        .
      </p>
      {page.paragraphs.map((paragraph) => (
        <p key={paragraph}>{paragraph}</p>
      ))}
    </article>
  );
}
