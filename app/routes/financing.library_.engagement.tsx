import { json, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { investorTableLinks } from "~/components/investor-table";
import { ReadingRefusal, ReadingTable, readingTableLinks } from "~/components/reading-table";
import { readingContent } from "~/content/library-reading";
import { insightsContent } from "~/content/reading-insights";
import { requireAdmin } from "~/http/auth.server";
import { engagementPeriodOf } from "~/http/engagement-period.server";
import { investorPagePath } from "~/lib/investor-table";
import { pageMeta } from "~/lib/meta";
import { engagementRanking } from "~/models/reading/engagement.server";

const words = insightsContent.engagement;
/** The page shows the leading hundred; the CSV has everyone. */
const SHOWN = 100;

export const links: LinksFunction = () => [...investorTableLinks(), ...readingTableLinks()];

export const meta: MetaFunction = () => pageMeta(words.title, words.description);

/** The investors ranked by engagement over a period, its formula beside it. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const period = engagementPeriodOf(request);
  const ranking = await engagementRanking(period.fromMs, period.toMs, SHOWN);
  return json({ from: period.from, to: period.to, ranking }, { headers: { "Cache-Control": "private, no-store" } });
}

export default function EngagementRanking() {
  const { from, to, ranking } = useLoaderData<typeof loader>();
  return (
    <section className="investor-page reading-report" aria-labelledby="engagement-heading">
      <p>
        <Link to="/financing/library/reading">{readingContent.readers.back}</Link>
      </p>
      <h1 id="engagement-heading">{words.heading}</h1>
      <aside aria-label={words.formulaLabel} className="engagement-formula">
        <p>{words.formula}</p>
      </aside>
      <Form method="get" className="engagement-period">
        <label>
          {words.from} <input type="date" name="from" defaultValue={from} required />
        </label>{" "}
        <label>
          {words.to} <input type="date" name="to" defaultValue={to} required />
        </label>{" "}
        <button type="submit" className="button button--small">
          {words.show}
        </button>
      </Form>
      <p>
        <a href={`/financing/library/engagement.csv?from=${from}&to=${to}`} download>
          {words.csv}
        </a>
      </p>
      {ranking.length === 0 ? (
        <p>{words.empty}</p>
      ) : (
        <ReadingTable
          caption={words.caption(from, to)}
          columns={Object.values(words.columns)}
          rows={ranking.map((investor, index) => ({
            key: investor.userId,
            cells: [
              { value: index + 1, number: true },
              { value: investor.fullName || readingContent.unnamed },
              { value: <Link to={investorPagePath(investor.userId)}>{investor.email}</Link> },
              { value: investor.minutes, number: true },
              { value: investor.documents, number: true },
              { value: investor.score, number: true },
            ],
          }))}
        />
      )}
    </section>
  );
}

export const ErrorBoundary = ReadingRefusal;
