import {
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { AdminRefusal } from "~/components/admin-refusal";
import { investorTableLinks } from "~/components/investor-table";
import { FileFields, FormLevel, formState, libraryLinks } from "~/components/library";
import { ConfirmFirstLink, SudoNotice } from "~/components/sudo-notice";
import { UploadForm } from "~/components/upload-form";
import { libraryContent } from "~/content/library";
import { libraryPath } from "~/lib/library-path";
import { pageMeta } from "~/lib/meta";
import { newVersionAction, newVersionLoader } from "./financing.library.$id_.versions.server";

const words = libraryContent;

export const links: LinksFunction = () => [...investorTableLinks(), ...libraryLinks()];

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  pageMeta(data ? words.newVersion.title(data.document.title) : words.list.title, words.newVersion.description);

export const loader = ({ request, params }: LoaderFunctionArgs) => newVersionLoader(request, params);

export const action = ({ request, params, context }: ActionFunctionArgs) =>
  newVersionAction(request, params, context.clientIp);

export default function NewVersionPage() {
  const { document, sudo } = useLoaderData<typeof loader>();
  const refused = useActionData<typeof action>();
  const path = `${libraryPath(document.id)}/versions`;
  return (
    <section className="audit-page library" aria-labelledby="version-heading">
      <p>
        <Link to={libraryPath(document.id)}>{words.newVersion.back(document.title)}</Link>
      </p>
      <h1 id="version-heading">{words.newVersion.title(document.title)}</h1>
      <SudoNotice sudo={sudo} notice={words.document.sudoNotice} />
      <p>{words.document.replaceIntro}</p>
      <UploadForm
        action={path}
        routeId="routes/financing.library.$id_.versions"
        submitLabel={words.document.replaceSubmit}
      >
        <FormLevel reply={refused?.reply} />
        <ConfirmFirstLink href={refused?.confirmHref} />
        <FileFields state={formState(refused?.reply)} idPrefix="version" kind={document.kind} />
      </UploadForm>
    </section>
  );
}

export const ErrorBoundary = () => <AdminRefusal className="audit-page" />;
