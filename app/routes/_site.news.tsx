import type { MetaFunction } from "@remix-run/node";
import { comingSoon, newsPage } from "~/content/coming-soon";
import { pageMeta } from "~/lib/meta";

export const meta: MetaFunction = () => pageMeta(newsPage.title, newsPage.description);

export default function NewsPage() {
  return (
    <section className="section">
      <h1>{newsPage.heading}</h1>
      <p>{comingSoon}</p>
    </section>
  );
}
