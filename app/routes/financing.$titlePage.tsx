import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useParams } from "@remix-run/react";
import { MaterialsRefusal } from "~/components/portal-refusal";
import { titlePages } from "~/content/portal";
import { requireMaterialsView } from "~/http/auth.server";
import { pageMeta } from "~/lib/meta";
import portalStyles from "~/styles/portal.css";

/**
 * The materials pages that are placeholders with their title only (terms and conditions, slide deck,
 * description of securities), behind the same guard as the materials. Any other /financing/<name>
 * that no route of its own claims is not found.
 */
export const links: LinksFunction = () => [{ rel: "stylesheet", href: portalStyles }];

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  if (!titlePages[params.titlePage ?? ""]) throw new Response("Not found", { status: 404 });
  await requireMaterialsView(request, context.clientIp);
  return null;
}

export const meta: MetaFunction = ({ params }) => {
  const page = titlePages[params.titlePage ?? ""];
  return page ? pageMeta(page.title, page.description) : [];
};

export default function TitlePage() {
  const page = titlePages[useParams().titlePage ?? ""];
  return (
    <section className="portal-status">
      <h1>{page?.title}</h1>
    </section>
  );
}

export const ErrorBoundary = MaterialsRefusal;
