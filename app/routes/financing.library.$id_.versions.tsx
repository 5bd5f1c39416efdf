import {
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  json,
} from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { AdminRefusal } from "~/components/admin-refusal";
import { investorTableLinks } from "~/components/investor-table";
import { FileFields, FormLevel, formState, libraryLinks } from "~/components/library";
import { UploadForm } from "~/components/upload-form";
import { libraryContent } from "~/content/library";
import { requireAdmin } from "~/http/auth.server";
import {
  NO_STORE,
  actorOf,
  documentIdOf,
  libraryPath,
  notFound,
  readUploadForm,
  refusedForm,
} from "~/http/library-pages.server";
import { redirectWithToast } from "~/http/toast.server";
import { pageMeta } from "~/lib/meta";
import { addVersion, discardUpload, getLibraryDocument } from "~/models/materials.server";

const words = libraryContent;

export const links: LinksFunction = () => [...investorTableLinks(), ...libraryLinks()];

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  pageMeta(data ? words.newVersion.title(data.document.title) : words.list.title, words.newVersion.description);

async function documentOf(params: { id?: string }) {
  const document = await getLibraryDocument(documentIdOf(params));
  if (!document) throw notFound();
  return { id: document.id, title: document.title, kind: document.kind };
}

/** The new version's form alone: where a refused upload is said (the document's page has the same form). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return json({ document: await documentOf(params) }, { headers: NO_STORE });
}

/** A new version of the document, of its kind; investors get it from now on. A refusal keeps nothing. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const user = await requireAdmin(request);
  const document = await documentOf(params);
  const form = await readUploadForm(request, z.object({}));
  if (!form.ok) return refusedForm(form.reply, form.status);
  const { upload } = form;
  const added = await addVersion(document.id, upload.kind, upload, actorOf(user, context.clientIp)).catch(
    async (error: unknown) => {
      await discardUpload(upload);
      throw error;
    },
  );
  if (!added.ok) {
    await discardUpload(upload);
    return refusedForm({ error: { file: [added.message, words.errors.chooseAgain] }, initialValue: {} }, added.status);
  }
  return redirectWithToast(libraryPath(document.id), words.notices.versionPublished(added.number));
}

export default function NewVersionPage() {
  const { document } = useLoaderData<typeof loader>();
  const refused = useActionData<typeof action>();
  const path = `${libraryPath(document.id)}/versions`;
  return (
    <section className="audit-page library" aria-labelledby="version-heading">
      <p>
        <Link to={libraryPath(document.id)}>{words.newVersion.back(document.title)}</Link>
      </p>
      <h1 id="version-heading">{words.newVersion.title(document.title)}</h1>
      <p>{words.document.replaceIntro}</p>
      <UploadForm
        action={path}
        routeId="routes/financing.library.$id_.versions"
        submitLabel={words.document.replaceSubmit}
      >
        <FormLevel reply={refused?.reply} />
        <FileFields state={formState(refused?.reply)} idPrefix="version" kind={document.kind} />
      </UploadForm>
    </section>
  );
}

export const ErrorBoundary = () => <AdminRefusal className="audit-page" />;
