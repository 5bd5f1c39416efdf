import {
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { Link, useActionData } from "@remix-run/react";
import { AdminRefusal } from "~/components/admin-refusal";
import { investorTableLinks } from "~/components/investor-table";
import { AudienceFields, DetailsFields, FileFields, FormLevel, formState, libraryLinks } from "~/components/library";
import { UploadForm } from "~/components/upload-form";
import { libraryContent } from "~/content/library";
import { libraryPath } from "~/lib/library-path";
import { pageMeta } from "~/lib/meta";
import { newDocumentAction, newDocumentLoader } from "./financing.library.new.server";

const words = libraryContent;
const PATH = "/financing/library/new";

export const links: LinksFunction = () => [...investorTableLinks(), ...libraryLinks()];

export const meta: MetaFunction = () => pageMeta(words.newDocument.title, words.newDocument.description);

export const loader = ({ request }: LoaderFunctionArgs) => newDocumentLoader(request);

export const action = ({ request, context }: ActionFunctionArgs) => newDocumentAction(request, context.clientIp);

export default function NewDocumentPage() {
  const refused = useActionData<typeof action>();
  const state = formState(refused?.reply);
  return (
    <section className="audit-page library" aria-labelledby="new-document-heading">
      <p>
        <Link to={libraryPath()}>{words.back}</Link>
      </p>
      <h1 id="new-document-heading">{words.newDocument.heading}</h1>
      <p>{words.newDocument.draft}</p>
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
