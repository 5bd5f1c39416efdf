import type { MetaFunction } from "@remix-run/node";
import { comingSoon, demoPage } from "~/content/coming-soon";
import { pageMeta } from "~/lib/meta";

export const meta: MetaFunction = () => pageMeta(demoPage.title, demoPage.description);

export default function DemoPage() {
  return (
    <section className="section">
      <h1>{demoPage.heading}</h1>
      <p>{comingSoon}</p>
    </section>
  );
}
