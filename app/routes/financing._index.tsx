import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { financingPage } from "~/content/auth";
import { requireUser } from "~/models/session.server";
import { pageMeta } from "~/utils/meta";

/** A placeholder until the investor status screens (the next issue) take its place. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return json({ email: user.email });
}

export const meta: MetaFunction = () => pageMeta(financingPage.title, financingPage.description);

export default function FinancingIndexPage() {
  const { email } = useLoaderData<typeof loader>();
  return (
    <section className="financing-placeholder">
      <h1>{financingPage.heading}</h1>
      <p>
        {financingPage.signedInAs} <strong>{email}</strong>.
      </p>
      <p>{financingPage.placeholder}</p>
    </section>
  );
}
