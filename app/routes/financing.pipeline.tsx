import { type LinksFunction, type LoaderFunctionArgs, type MetaFunction, json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { AdminRefusal } from "~/components/admin-refusal";
import { investorTableLinks } from "~/components/investor-table";
import { PipelineFunnel } from "~/components/pipeline-funnel";
import { pipelineContent as words } from "~/content/pipeline";
import { requireAdmin } from "~/http/auth.server";
import { formatDollars } from "~/lib/dollars";
import { pageMeta } from "~/lib/meta";
import { readPipeline } from "~/models/pipeline/pipeline.server";
import styles from "~/styles/administrators.css";

export const links: LinksFunction = () => [...investorTableLinks(), { rel: "stylesheet", href: styles }];

export const meta: MetaFunction = () => pageMeta(words.title, words.description);

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return json(await readPipeline(), { headers: { "Cache-Control": "private, no-store" } });
}

const stageHref = (stage: string) => `/financing?stage=${stage}`;

export default function PipelinePage() {
  const { stages, interest, weeks } = useLoaderData<typeof loader>();
  return (
    <section className="administrators pipeline" aria-labelledby="pipeline-heading">
      <h1 id="pipeline-heading">{words.heading}</h1>
      <p>
        <Link to="/financing">{words.back}</Link>
      </p>
      <PipelineFunnel stages={stages.map((stage) => ({ ...stage, href: stageHref(stage.stage) }))} />
      <table>
        <thead>
          <tr>
            <th scope="col">{words.columns.stage}</th>
            <th scope="col">{words.columns.count}</th>
            <th scope="col">{words.columns.conversion}</th>
          </tr>
        </thead>
        <tbody>
          {stages.map((stage) => (
            <tr key={stage.stage}>
              <th scope="row">
                <Link to={stageHref(stage.stage)}>{words.stages[stage.stage]}</Link>
              </th>
              <td>{stage.count.toLocaleString("en-US")}</td>
              <td>{words.conversion(stage.conversion)}</td>
            </tr>
          ))}
        </tbody>
      </table>

      <h2>{words.interest.heading}</h2>
      <p>{words.interest.note}</p>
      <table>
        <thead>
          <tr>
            <th scope="col">{words.interest.columns.verification}</th>
            <th scope="col">{words.interest.columns.count}</th>
            <th scope="col">{words.interest.columns.sum}</th>
          </tr>
        </thead>
        <tbody>
          {interest.byVerification.map((row) => (
            <tr key={row.verification}>
              <th scope="row">{words.interest.standings[row.verification]}</th>
              <td>{row.count.toLocaleString("en-US")}</td>
              <td>{formatDollars(row.sum)}</td>
            </tr>
          ))}
          <tr>
            <th scope="row">{words.interest.total}</th>
            <td>{interest.count.toLocaleString("en-US")}</td>
            <td>{formatDollars(interest.sum)}</td>
          </tr>
        </tbody>
      </table>
      <p>
        <a href="/financing/pipeline.csv" download={words.csvFileName}>
          {words.interest.csv}
        </a>
      </p>

      <h2>{words.weeks.heading}</h2>
      {weeks.length === 0 ? (
        <p>{words.weeks.empty}</p>
      ) : (
        <div className="investor-table__scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">{words.weeks.columns.week}</th>
                <th scope="col">{words.weeks.columns.signedUp}</th>
                <th scope="col">{words.weeks.columns.verified}</th>
                <th scope="col">{words.weeks.columns.indicated}</th>
              </tr>
            </thead>
            <tbody>
              {weeks.map((week) => (
                <tr key={week.week}>
                  <th scope="row">{week.week}</th>
                  <td>{week.signedUp}</td>
                  <td>{week.verified}</td>
                  <td>{week.indicated}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

export const ErrorBoundary = () => <AdminRefusal className="administrators" />;
