import type { LinksFunction, MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { institutionalPage as page } from "~/content/institutional";
import { pageMeta } from "~/lib/meta";
import legalStyles from "~/styles/legal.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: legalStyles }];

export const meta: MetaFunction = () => pageMeta(page.title, page.description);

export default function InvestorsPage() {
  return (
    <article className="section prose">
      <h1>{page.heading}</h1>
      {page.about.map((paragraph) => (
        <p key={paragraph}>{paragraph}</p>
      ))}
      <h2>{page.welcomeHeading}</h2>
      <p>{page.welcome}</p>
      <p>
        {page.contactLead} <a href={`mailto:${page.mailbox}`}>{page.mailbox}</a>.
      </p>
      <h2>{page.portal.heading}</h2>
      <p>{page.portal.text}</p>
      <p>
        <Link to={page.portal.link.to}>{page.portal.link.label}</Link>
      </p>
      <h2>{page.disclosuresHeading}</h2>
      <ul>
        {/* Not published yet: a label, not a link that leads nowhere. */}
        <li className="prose__label">{page.formAtsN}</li>
      </ul>
    </article>
  );
}
