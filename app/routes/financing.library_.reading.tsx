import { json, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { investorTableLinks } from "~/components/investor-table";
import { OpenedAt, ReadingRefusal, ReadingTable, readingTableLinks } from "~/components/reading-table";
import { readingContent } from "~/content/library-reading";
import { insightsContent } from "~/content/reading-insights";
import { requireAdmin } from "~/http/auth.server";
import { pageMeta } from "~/lib/meta";
import { readingReport } from "~/models/library/library-openings.server";

const words = readingContent.report;

export const links: LinksFunction = () => [...investorTableLinks(), ...readingTableLinks()];

export const meta: MetaFunction = () => pageMeta(words.title, words.description);

/** The reading report: every document of the library, in its order, with who opened it and when. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return json({ report: await readingReport() }, { headers: { "Cache-Control": "private, no-store" } });
}

export default function ReadingReport() {
  const { report } = useLoaderData<typeof loader>();
  return (
    <section className="investor-page reading-report" aria-labelledby="reading-heading">
      <p>
        <Link to="/financing">{words.back}</Link>
      </p>
      <h1 id="reading-heading">{words.heading}</h1>
      <p>{words.intro}</p>
      <p>
        <a href="/financing/library/reading.csv" download>
          {words.csv}
        </a>
      </p>
      <p>
        <Link to="/financing/library/engagement">{insightsContent.engagement.link}</Link>
      </p>
      {report.length === 0 ? (
        <p>{words.empty}</p>
      ) : (
        <ReadingTable
          caption={words.caption}
          columns={Object.values(words.columns)}
          rows={report.map((row) => ({
            key: row.documentId,
            cells: [
              { value: <Link to={`/financing/library/reading/${row.documentId}`}>{row.title}</Link> },
              { value: readingContent.kinds[row.kind] ?? row.kind },
              { value: row.published ? readingContent.yes : readingContent.no },
              { value: row.readers, number: true },
              { value: row.opens, number: true },
              { value: <OpenedAt at={row.firstOpenedAt} /> },
              { value: <OpenedAt at={row.lastOpenedAt} /> },
            ],
          }))}
        />
      )}
    </section>
  );
}

export const ErrorBoundary = ReadingRefusal;
