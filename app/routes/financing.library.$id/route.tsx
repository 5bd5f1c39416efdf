import {
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { AdminRefusal } from "~/components/admin-refusal";
import { investorTableLinks } from "~/components/investor-table";
import {
  AudienceFields,
  DetailsFields,
  FileFields,
  FormLevel,
  audienceInWords,
  formState,
  libraryLinks,
  whenInWords,
} from "~/components/library";
import { readingTableLinks } from "~/components/reading-table";
import { ConfirmFirstLink, SudoNotice } from "~/components/sudo-notice";
import { UploadForm } from "~/components/upload-form";
import { libraryContent } from "~/content/library";
import { formatFileSize } from "~/lib/file-size";
import { libraryPath } from "~/lib/library-path";
import { pageMeta } from "~/lib/meta";
import { libraryDocumentAction, libraryDocumentLoader } from "./route.server";

const words = libraryContent;
const page = words.document;

export const links: LinksFunction = () => [...investorTableLinks(), ...libraryLinks(), ...readingTableLinks()];

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  pageMeta(data?.document.title ?? words.list.title, page.description);

export const loader = ({ request, params }: LoaderFunctionArgs) => libraryDocumentLoader(request, params);

export const action = ({ request, params, context }: ActionFunctionArgs) =>
  libraryDocumentAction(request, params, context.clientIp);

type Intent = "details" | "publish" | "unpublish" | "audience" | "allow-download" | "viewer-only";

export default function LibraryDocumentPage() {
  const { document, sudo } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const replyFor = (intent: Intent) => (answer?.intent === intent ? answer.reply : undefined);
  const details = formState(replyFor("details"), { title: document.title, description: document.description });
  const audience = formState(replyFor("audience"), {
    audience: document.audience,
    chosen: document.chosen.map((investor) => investor.email).join("\n"),
  });
  const publication = replyFor("publish") ?? replyFor("unpublish");
  const confirmFor = (...intents: Intent[]) =>
    answer?.intent && intents.includes(answer.intent) ? answer.confirmHref : null;
  // What an investor opens: the stamped copy of a PDF (stamped for whoever opens it), a video's watch page.
  const preview = `/financing/materials/${document.id}${document.kind === "video" ? "/watch" : ""}`;
  return (
    <section className="audit-page library" aria-labelledby="document-heading">
      <p>
        <Link to={libraryPath()}>{words.back}</Link>
      </p>
      <h1 id="document-heading">{document.title}</h1>
      <p>
        {words.kinds[document.kind]} · {formatFileSize(document.latest.size)} ·{" "}
        {document.published ? words.published.yes : words.published.no} ·{" "}
        {audienceInWords(document.audience, document.chosen.length)}
      </p>
      <p>
        <Link to={`/financing/library/reading/${document.id}`}>{page.readers}</Link>
      </p>
      <SudoNotice sudo={sudo} notice={page.sudoNotice} />
      <FormLevel reply={answer?.intent === null ? answer.reply : undefined} id="document-error" />

      <section aria-labelledby="details-heading" className="library__section">
        <h2 id="details-heading">{page.details}</h2>
        <Form method="post" className="library__form" noValidate>
          <input type="hidden" name="intent" value="details" />
          <FormLevel reply={replyFor("details")} id="details-error" />
          <DetailsFields state={details} idPrefix="details" />
          <button type="submit" className="button">
            {page.save}
          </button>
        </Form>
      </section>

      <section aria-labelledby="publication-heading" className="library__section">
        <h2 id="publication-heading">{page.publication}</h2>
        <p>{document.published ? page.publishedNow : page.unpublishedNow}</p>
        <p>
          {/* A plain anchor: a PDF is a file, not an app route. */}
          <a href={preview} aria-describedby="preview-hint">
            {page.preview}
          </a>
        </p>
        <p id="preview-hint">{page.previewHint[document.kind]}</p>
        <Form method="post">
          <FormLevel reply={publication} id="publication-error" />
          <ConfirmFirstLink href={confirmFor("publish", "unpublish")} />
          <button
            type="submit"
            name="intent"
            value={document.published ? "unpublish" : "publish"}
            className="button button--secondary"
          >
            {document.published ? page.unpublish : page.publish}
          </button>
        </Form>
      </section>

      {document.kind === "pdf" ? (
        <section aria-labelledby="download-heading" className="library__section">
          <h2 id="download-heading">{page.download}</h2>
          <p>{document.downloadable ? page.downloadAllowedNow : page.viewerOnlyNow}</p>
          <p id="download-honesty">{page.downloadHonesty}</p>
          <Form method="post">
            <FormLevel reply={replyFor("allow-download") ?? replyFor("viewer-only")} id="download-error" />
            <button
              type="submit"
              name="intent"
              value={document.downloadable ? "viewer-only" : "allow-download"}
              className="button button--secondary"
              aria-describedby="download-honesty"
            >
              {document.downloadable ? page.viewerOnly : page.allowDownload}
            </button>
          </Form>
        </section>
      ) : null}

      <section aria-labelledby="audience-heading" className="library__section">
        <h2 id="audience-heading">{page.audience}</h2>
        <Form method="post" className="library__form" noValidate>
          <input type="hidden" name="intent" value="audience" />
          <FormLevel reply={replyFor("audience")} id="audience-form-error" />
          <ConfirmFirstLink href={confirmFor("audience")} />
          <AudienceFields state={audience} idPrefix="audience" />
          <button type="submit" className="button">
            {page.saveAudience}
          </button>
        </Form>
      </section>

      <section aria-labelledby="versions-heading" className="library__section">
        <h2 id="versions-heading">{page.versions}</h2>
        <div className="investor-table__scroll">
          {/* The reading tables' layout: a card of labelled lines on a phone. */}
          <table className="audit-table reading-table">
            <caption className="visually-hidden">{page.versionsCaption}</caption>
            <thead>
              <tr>
                <th scope="col">{page.columns.number}</th>
                <th scope="col">{page.columns.fileName}</th>
                <th scope="col">{page.columns.size}</th>
                <th scope="col">{page.columns.sha256}</th>
                <th scope="col">{page.columns.uploadedBy}</th>
                <th scope="col">{page.columns.date}</th>
                <th scope="col">{page.columns.captions}</th>
              </tr>
            </thead>
            <tbody>
              {document.versions.map((version) => (
                <tr key={version.id}>
                  <th scope="row" data-label={page.columns.number}>
                    {/* A plain anchor: the version is a file (a stamped PDF, or a video), not an app route. */}
                    <a
                      href={`/financing/materials/${document.id}/versions/${version.number}`}
                      aria-label={page.openVersion(version.number)}
                    >
                      {version.number}
                    </a>
                  </th>
                  <td className="library__wrap" data-label={page.columns.fileName}>
                    {version.fileName}
                  </td>
                  <td data-label={page.columns.size}>{formatFileSize(version.size)}</td>
                  <td data-label={page.columns.sha256}>
                    <abbr title={version.sha256}>
                      <code>{version.sha256.slice(0, 12)}</code>
                    </abbr>
                  </td>
                  <td className="library__wrap" data-label={page.columns.uploadedBy}>
                    {version.uploadedBy ?? page.unknownUploader}
                  </td>
                  <td data-label={page.columns.date}>{whenInWords(version.createdAt)}</td>
                  <td data-label={page.columns.captions}>{version.hasCaptions ? page.yes : page.no}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>

      <section aria-labelledby="replace-heading" className="library__section">
        <h2 id="replace-heading">{page.replace}</h2>
        <p>{page.replaceIntro}</p>
        <UploadForm
          action={`${libraryPath(document.id)}/versions`}
          routeId="routes/financing.library.$id_.versions"
          submitLabel={page.replaceSubmit}
        >
          <FileFields state={formState(undefined)} idPrefix="replace" kind={document.kind} />
        </UploadForm>
      </section>
    </section>
  );
}

export const ErrorBoundary = () => <AdminRefusal className="audit-page" />;
