import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { investorTableLinks } from "~/components/investor-table";
import { OpenedAt, ReadingRefusal, ReadingTable, readingTableLinks } from "~/components/reading-table";
import { readingContent } from "~/content/library-reading";
import { requireAdmin } from "~/http/auth.server";
import { documentOfAddress } from "~/http/reading-report.server";
import { investorPagePath } from "~/lib/investor-table";
import { pageMeta } from "~/lib/meta";
import { readersOf } from "~/models/materials.server";

const words = readingContent.readers;

export const links: LinksFunction = () => [...investorTableLinks(), ...readingTableLinks()];

export const meta: MetaFunction = () => pageMeta(words.title, words.description);

/** One document's readers: each investor who opened it, how often, first and last, the latest first. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const document = await documentOfAddress(params);
  const readers = await readersOf(document.id);
  return json(
    { document: { id: document.id, title: document.title }, readers },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export default function DocumentReaders() {
  const { document, readers } = useLoaderData<typeof loader>();
  const opens = readers.reduce((sum, reader) => sum + reader.opens, 0);
  return (
    <section className="investor-page reading-report" aria-labelledby="readers-heading">
      <p>
        <Link to="/financing/library/reading">{words.back}</Link>
      </p>
      <h1 id="readers-heading">{words.heading(document.title)}</h1>
      <p>{words.summary(readers.length, opens)}</p>
      <p>
        <a href={`/financing/library/reading/${document.id}.csv`} download>
          {words.csv}
        </a>
      </p>
      {readers.length === 0 ? (
        <p>{words.empty}</p>
      ) : (
        <ReadingTable
          caption={words.caption}
          columns={Object.values(words.columns)}
          rows={readers.map((reader) => ({
            key: reader.userId,
            cells: [
              { value: reader.fullName || readingContent.unnamed },
              { value: <Link to={investorPagePath(reader.userId)}>{reader.email}</Link> },
              { value: reader.opens, number: true },
              { value: <OpenedAt at={reader.firstOpenedAt} /> },
              { value: <OpenedAt at={reader.lastOpenedAt} /> },
            ],
          }))}
        />
      )}
    </section>
  );
}

export const ErrorBoundary = ReadingRefusal;
