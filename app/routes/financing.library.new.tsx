import {
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  json,
} from "@remix-run/node";
import { Link, useActionData } from "@remix-run/react";
import { AdminRefusal } from "~/components/admin-refusal";
import { investorTableLinks } from "~/components/investor-table";
import { AudienceFields, DetailsFields, FileFields, FormLevel, formState, libraryLinks } from "~/components/library";
import { UploadForm } from "~/components/upload-form";
import { libraryContent } from "~/content/library";
import { requireAdmin } from "~/http/auth.server";
import { NO_STORE, actorOf, libraryPath, readUploadForm, refusedForm } from "~/http/library-pages.server";
import { redirectWithToast } from "~/http/toast.server";
import { pageMeta } from "~/lib/meta";
import { newDocumentSchema } from "~/models/library-schema.server";
import { createDocument, discardUpload } from "~/models/materials.server";

const words = libraryContent;
const PATH = "/financing/library/new";

export const links: LinksFunction = () => [...investorTableLinks(), ...libraryLinks()];

export const meta: MetaFunction = () => pageMeta(words.newDocument.title, words.newDocument.description);

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return json(null, { headers: NO_STORE });
}

/** A new document, published at the end of the list with its first version; any refusal keeps nothing. */
export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireAdmin(request);
  const form = await readUploadForm(request, newDocumentSchema);
  if (!form.ok) return refusedForm(form.reply, form.status);
  const { value, upload, chosenUserIds } = form;
  const created = await createDocument(
    {
      title: value.title,
      description: value.description,
      kind: upload.kind,
      audience: value.audience,
      chosenUserIds,
      upload,
    },
    actorOf(user, context.clientIp),
  ).catch(async (error: unknown) => {
    await discardUpload(upload);
    throw error;
  });
  if (!created.ok) {
    await discardUpload(upload);
    return refusedForm({ error: { "": [created.message] }, initialValue: {} }, created.status);
  }
  return redirectWithToast(libraryPath(created.id), words.notices.uploaded(value.title));
}

export default function NewDocumentPage() {
  const refused = useActionData<typeof action>();
  const state = formState(refused?.reply);
  return (
    <section className="audit-page library" aria-labelledby="new-document-heading">
      <p>
        <Link to={libraryPath()}>{words.back}</Link>
      </p>
      <h1 id="new-document-heading">{words.newDocument.heading}</h1>
      <UploadForm action={PATH} routeId="routes/financing.library.new" submitLabel={words.newDocument.submit}>
        <FormLevel reply={refused?.reply} />
        <DetailsFields state={state} idPrefix="new" />
        <AudienceFields state={state} idPrefix="new" />
        <FileFields state={state} idPrefix="new" />
      </UploadForm>
    </section>
  );
}

export const ErrorBoundary = () => <AdminRefusal className="audit-page" />;
