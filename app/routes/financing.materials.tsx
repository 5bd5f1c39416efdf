import { type LinksFunction, type LoaderFunctionArgs, type MetaFunction, json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { LibraryList } from "~/components/library-list";
import { MaterialsRefusal } from "~/components/portal-refusal";
import { materialsPage } from "~/content/portal";
import { requireMaterialsView } from "~/http/auth.server";
import { formatFileSize } from "~/lib/file-size";
import { formatRegistrationTime } from "~/lib/investor-table";
import { pageMeta } from "~/lib/meta";
import { listOpenableDocuments, recordMaterialsVisit } from "~/models/materials.server";
import portalStyles from "~/styles/portal.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: portalStyles }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireMaterialsView(request, context.clientIp);
  // "New" and "Updated" are since the visit before this one.
  const previousVisitAt = await recordMaterialsVisit(user.id);
  const documents = await listOpenableDocuments(user, previousVisitAt);
  return json({
    fullName: user.fullName || user.email,
    documents: documents.map((document) => ({
      id: document.id,
      title: document.title,
      description: document.description,
      kind: document.kind,
      size: formatFileSize(document.latest.size),
      updated: formatRegistrationTime(new Date(document.latest.createdAt).toISOString()),
      mark: document.mark,
      href:
        document.kind === "video" ? `/financing/materials/${document.id}/watch` : `/financing/materials/${document.id}`,
    })),
  });
}

export const meta: MetaFunction = () => pageMeta(materialsPage.title, materialsPage.description);

export default function MaterialsPage() {
  const { fullName, documents } = useLoaderData<typeof loader>();
  const { links: materials } = materialsPage;
  return (
    <section className="portal-status portal-materials" aria-labelledby="materials-heading">
      <h1 id="materials-heading">{materialsPage.welcome(fullName)}</h1>
      <p>
        {materialsPage.questions.before}{" "}
        <a href={`mailto:${materialsPage.questions.mailbox}`}>{materialsPage.questions.mailbox}</a>.
      </p>
      <nav aria-label={materialsPage.linksLabel}>
        <ul className="portal-materials__links">
          {Object.values(materials).map((link) => (
            <li key={link.label}>
              {/* Plain anchors: the PDF and the new tab are documents, not app routes. */}
              <a
                href={link.href}
                className="portal-materials__link"
                {...(link.newTab ? { target: "_blank", rel: "noopener" } : {})}
              >
                {link.label}
                {link.newTab ? <span className="visually-hidden"> {materialsPage.opensInNewTab}</span> : null}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <LibraryList documents={documents} />
    </section>
  );
}

export const ErrorBoundary = MaterialsRefusal;
