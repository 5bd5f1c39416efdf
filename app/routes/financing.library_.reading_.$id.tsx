import { json, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { investorTableLinks } from "~/components/investor-table";
import { OpenedAt, ReadingRefusal, ReadingTable, readingTableLinks } from "~/components/reading-table";
import { DocumentReadingTime, VideoWatchingTime } from "~/components/reading-time";
import { readingContent } from "~/content/library-reading";
import { requireAdmin } from "~/http/auth.server";
import { documentOfAddress, readersPageOf } from "~/http/reading-report.server";
import { investorPagePath } from "~/lib/investor-table";
import { pageMeta } from "~/lib/meta";
import { readerTotals, readersOf } from "~/models/library/library-openings.server";
import { documentReadingTime, videoWatching } from "~/models/reading/reading-insights.server";

const words = readingContent.readers;

export const links: LinksFunction = () => [...investorTableLinks(), ...readingTableLinks()];

export const meta: MetaFunction = () => pageMeta(words.title, words.description);

const PAGE_SIZE = readingContent.readersPageSize;

/** One document's readers: each investor who opened it, how often, first and last, the latest first, a page at a time. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const page = readersPageOf(request);
  const document = await documentOfAddress(params);
  const [totals, readers, readingTime, watching] = await Promise.all([
    readerTotals(document.id),
    readersOf(document.id, { limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE }),
    document.kind === "pdf" ? documentReadingTime(document.id) : null,
    document.kind === "video" ? videoWatching(document.id) : null,
  ]);
  const pages = Math.max(1, Math.ceil(totals.readers / PAGE_SIZE));
  if (page > pages) {
    throw new Response(readingContent.errors.pageNotFound, {
      status: 404,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  }
  return json(
    { document: { id: document.id, title: document.title }, totals, readers, page, pages, readingTime, watching },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export default function DocumentReaders() {
  const { document, totals, readers, page, pages, readingTime, watching } = useLoaderData<typeof loader>();
  const path = `/financing/library/reading/${document.id}`;
  return (
    <section className="investor-page reading-report" aria-labelledby="readers-heading">
      <p>
        <Link to="/financing/library/reading">{words.back}</Link>
      </p>
      <h1 id="readers-heading">{words.heading(document.title)}</h1>
      <p>{words.summary(totals.readers, totals.opens)}</p>
      {readingTime ? <DocumentReadingTime time={readingTime} /> : null}
      {watching ? <VideoWatchingTime watching={watching} /> : null}
      <p>
        <a href={`${path}.csv`} download>
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
      {pages > 1 ? (
        <nav aria-label={words.pages} className="audit-pages">
          <p>{words.pageOf(page, pages)}</p>
          <ul>
            {page > 1 ? (
              <li>
                <Link to={page === 2 ? path : `${path}?page=${page - 1}`}>{words.previous}</Link>
              </li>
            ) : null}
            {page < pages ? (
              <li>
                <Link to={`${path}?page=${page + 1}`}>{words.next}</Link>
              </li>
            ) : null}
          </ul>
        </nav>
      ) : null}
    </section>
  );
}

export const ErrorBoundary = ReadingRefusal;
