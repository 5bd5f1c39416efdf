import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { MaterialsRefusal } from "~/components/portal-refusal";
import { titlePages } from "~/content/portal";
import { requireMaterialsView } from "~/http/auth.server";
import { pageMeta } from "~/lib/meta";
import portalStyles from "~/styles/portal.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: portalStyles }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireMaterialsView(request, context.clientIp);
  return null;
}

const page = titlePages.termsAndConditions;

export const meta: MetaFunction = () => pageMeta(page.title, page.description);

/** A placeholder page with its title only (SPEC section 2), behind the same guard as the materials. */
export default function TermsAndConditionsPage() {
  return (
    <section className="portal-status">
      <h1>{page.title}</h1>
    </section>
  );
}

export const ErrorBoundary = MaterialsRefusal;
