import { type LinksFunction, type LoaderFunctionArgs, type MetaFunction, json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { AfterMaterialsLinks } from "~/components/after-materials-links";
import { LibraryList } from "~/components/library-list";
import { MaterialsRefusal } from "~/components/portal-refusal";
import { libraryView } from "~/content/materials";
import { materialsPage } from "~/content/portal";
import { viewerText } from "~/content/reading";
import { requireMaterialsView } from "~/http/auth.server";
import { shippedDigests } from "~/http/shipped-materials.server";
import { formatFileSize } from "~/lib/file-size";
import { formatRegistrationTime } from "~/lib/investor-table";
import { materialsList } from "~/lib/materials-list";
import { pageMeta } from "~/lib/meta";
import { readPortalFeatures } from "~/models/features/portal-features.server";
import { listOpenableDocuments } from "~/models/library/library-access.server";
import { recordMaterialsVisit } from "~/models/library/library-openings.server";
import portalStyles from "~/styles/portal.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: portalStyles }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireMaterialsView(request, context.clientIp);
  // "New" and "Updated" are since the visit before this one.
  const previousVisitAt = await recordMaterialsVisit(user.id);
  const documents = await listOpenableDocuments(user, previousVisitAt);
  const listed = documents.map((document) => ({
    id: document.id,
    title: document.title,
    description: document.description,
    kind: document.kind,
    size: formatFileSize(document.latest.size),
    updated: formatRegistrationTime(new Date(document.latest.createdAt).toISOString()),
    mark: document.mark,
    href:
      document.kind === "video" ? `/financing/materials/${document.id}/watch` : `/financing/materials/${document.id}`,
    viewerHref: document.kind === "pdf" ? `/financing/materials/${document.id}/read` : undefined,
    sha256: document.latest.sha256,
  }));
  const features = await readPortalFeatures();
  return json({
    fullName: user.fullName || user.email,
    after: { questions: features.questions, qualification: features.qualification, interest: features.interest },
    materials: materialsList(Object.values(materialsPage.links), listed, await shippedDigests()),
    privacyNotice: viewerText.privacyNotice(),
  });
}

export const meta: MetaFunction = () => pageMeta(materialsPage.title, materialsPage.description);

export default function MaterialsPage() {
  const { fullName, materials, privacyNotice, after } = useLoaderData<typeof loader>();
  return (
    <section className="portal-status portal-materials" aria-labelledby="materials-heading">
      <h1 id="materials-heading">{materialsPage.welcome(fullName)}</h1>
      <p>
        {materialsPage.questions.before}{" "}
        <a href={`mailto:${materialsPage.questions.mailbox}`}>{materialsPage.questions.mailbox}</a>.
      </p>
      <p>{libraryView.intro}</p>
      <LibraryList items={materials} label={materialsPage.linksLabel} newTabNote={materialsPage.opensInNewTab} />
      <p className="portal-materials__privacy">{privacyNotice}</p>
      <AfterMaterialsLinks shown={after} />
    </section>
  );
}

export const ErrorBoundary = MaterialsRefusal;
