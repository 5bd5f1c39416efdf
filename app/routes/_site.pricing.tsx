import type { MetaFunction } from "@remix-run/node";
import { pageMeta } from "~/lib/meta";

export const meta: MetaFunction = () =>
  pageMeta("Pricing", "Pricing for the ATS: simple and transparent, coming soon.");

export default function PricingPage() {
  return (
    <section className="section">
      <h1>Simple, transparent pricing</h1>
      <p>Coming soon</p>
    </section>
  );
}
