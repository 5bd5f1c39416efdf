import {
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { AdminRefusal } from "~/components/admin-refusal";
import { FormErrors } from "~/components/form-field";
import { investorTableLinks } from "~/components/investor-table";
import { audienceInWords, libraryLinks, whenInWords } from "~/components/library";
import { adminContent } from "~/content/admin";
import { libraryContent } from "~/content/library";
import { formatFileSize } from "~/lib/file-size";
import { libraryPath } from "~/lib/library-path";
import { pageMeta } from "~/lib/meta";
import { libraryListAction, libraryListLoader } from "./financing.library._index.server";

const words = libraryContent;

export const links: LinksFunction = () => [...investorTableLinks(), ...libraryLinks()];

export const meta: MetaFunction = () => pageMeta(words.list.title, words.list.description);

export const loader = ({ request }: LoaderFunctionArgs) => libraryListLoader(request);

export const action = ({ request, context }: ActionFunctionArgs) => libraryListAction(request, context.clientIp);

export default function LibraryPage() {
  const { documents } = useLoaderData<typeof loader>();
  const refused = useActionData<typeof action>();
  return (
    <section className="audit-page library" aria-labelledby="library-heading">
      <p>
        <Link to="/financing">{adminContent.audit.back}</Link>
      </p>
      <h1 id="library-heading">{words.list.heading}</h1>
      <p>{words.list.intro}</p>
      <p>
        <Link to="/financing/library/new" className="button">
          {words.list.upload}
        </Link>{" "}
        <Link to="/financing/library/reading">{words.list.reading}</Link>
      </p>
      <FormErrors id="library-error" errors={refused ? [refused.message] : undefined} />
      {documents.length === 0 ? (
        <p>{words.list.empty}</p>
      ) : (
        <ol className="library__list" aria-label={words.list.caption}>
          {documents.map((document, index) => (
            <li key={document.id} className="library__card">
              <h2>
                <Link to={libraryPath(document.id)}>{document.title}</Link>
              </h2>
              <dl className="library__facts">
                <div>
                  <dt>{words.list.columns.kind}</dt>
                  <dd>{words.kinds[document.kind]}</dd>
                </div>
                <div>
                  <dt>{words.list.columns.size}</dt>
                  <dd>{formatFileSize(document.latest.size)}</dd>
                </div>
                <div>
                  <dt>{words.list.columns.version}</dt>
                  <dd>{words.list.versionOn(document.latest.number, whenInWords(document.latest.createdAt))}</dd>
                </div>
                <div>
                  <dt>{words.list.columns.state}</dt>
                  <dd>{document.published ? words.published.yes : words.published.no}</dd>
                </div>
                <div>
                  <dt>{words.list.columns.audience}</dt>
                  <dd>{audienceInWords(document.audience, document.chosenCount)}</dd>
                </div>
              </dl>
              <div className="library__move">
                {index > 0 ? <MoveButton id={document.id} title={document.title} direction="up" /> : null}
                {index < documents.length - 1 ? (
                  <MoveButton id={document.id} title={document.title} direction="down" />
                ) : null}
              </div>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

function MoveButton({ id, title, direction }: { id: string; title: string; direction: "up" | "down" }) {
  return (
    <Form method="post">
      <input type="hidden" name="documentId" value={id} />
      <button
        type="submit"
        name="intent"
        value={direction}
        className="button button--secondary button--small"
        aria-label={direction === "up" ? words.list.up(title) : words.list.down(title)}
      >
        {direction === "up" ? words.list.upLabel : words.list.downLabel}
      </button>
    </Form>
  );
}

export const ErrorBoundary = () => <AdminRefusal className="audit-page" />;
