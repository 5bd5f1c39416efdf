import { type LinksFunction, type LoaderFunctionArgs, type MetaFunction, json } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { AdminRefusal } from "~/components/admin-refusal";
import { EmailAddress } from "~/components/email-address";
import { investorTableLinks } from "~/components/investor-table";
import { adminContent } from "~/content/admin";
import { auditLogContent } from "~/content/audit-log";
import { readAuditLogQuery } from "~/http/audit-log-query.server";
import { requireAdmin } from "~/http/auth.server";
import { formatRegistrationTime } from "~/lib/investor-table";
import { pageMeta } from "~/lib/meta";
import { auditChainStatus } from "~/models/audit/audit-chain-watch.server";
import { describeBreak } from "~/models/audit/audit-chain.server";
import { auditEventKinds, auditLogPage, filtersInUse } from "~/models/audit/audit-log.server";
import auditLogStyles from "~/styles/audit-log.css";

const words = adminContent.audit;
const log = auditLogContent;

export const links: LinksFunction = () => [...investorTableLinks(), { rel: "stylesheet", href: auditLogStyles }];

/** The chain's status in words, and the row it breaks at (for a link to it). */
async function chainInWords() {
  const status = await auditChainStatus();
  if (status.broken) {
    return {
      intact: false,
      sentences: [words.chain.broken, describeBreak(status.broken)],
      brokenRow: status.broken.rowId,
    };
  }
  const { verified } = status;
  const sentence = verified
    ? words.chain.verifiedUpTo(verified.id, formatRegistrationTime(new Date(verified.at).toISOString()))
    : words.chain.empty;
  return { intact: true, sentences: [sentence], brokenRow: null };
}

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const kinds = auditEventKinds();
  const reading = readAuditLogQuery(request);
  if (!reading.ok) {
    return json(
      { kinds, given: reading.given, problems: reading.messages, filters: {}, page: null, chain: null, cursor: null },
      { status: 400 },
    );
  }
  const { cursor, ...filters } = reading.query;
  const [{ rows, nextCursor }, chain] = await Promise.all([auditLogPage(reading.query), chainInWords()]);
  // The page shows the details labelled: the stored object stays on the server (the API sends it).
  const page = { rows: rows.map(({ details: _details, ...row }) => row), nextCursor };
  return json({
    kinds,
    given: reading.given,
    problems: [],
    filters: filtersInUse(filters),
    page,
    chain,
    cursor: cursor ?? null,
  });
}

export const meta: MetaFunction = () => pageMeta(words.title, words.description);

const withQuery = (path: string, query: Record<string, string>) => {
  const search = new URLSearchParams(query).toString();
  return search ? `${path}?${search}` : path;
};

export default function AuditPage() {
  const { kinds, given, problems, filters, page, chain, cursor } = useLoaderData<typeof loader>();
  return (
    <section className="audit-page audit-log" aria-labelledby="audit-heading">
      <h1 id="audit-heading">{words.heading}</h1>
      <p>
        <Link to="/financing">{words.back}</Link>
      </p>
      {chain ? (
        <p className={chain.intact ? "audit-chain" : "audit-chain audit-chain--broken"}>
          <strong>{words.chain.label}:</strong> {chain.sentences.join(" ")}
          {chain.brokenRow !== null ? (
            <>
              {" "}
              <a href={`/financing/audit?cursor=${chain.brokenRow + 1}#row-${chain.brokenRow}`}>
                {words.chain.showRow(chain.brokenRow)}
              </a>
            </>
          ) : null}
        </p>
      ) : null}

      <Form method="get" action="/financing/audit" className="audit-log__filters">
        <fieldset>
          <legend>{log.filters.legend}</legend>
          <div className="audit-log__field">
            <label htmlFor="audit-person">{log.filters.person}</label>
            <input id="audit-person" type="email" name="person" defaultValue={given.person ?? ""} autoComplete="off" />
          </div>
          <div className="audit-log__field">
            <label htmlFor="audit-kind">{log.filters.kind}</label>
            <select id="audit-kind" name="kind" defaultValue={given.kind ?? ""}>
              <option value="">{log.filters.anyKind}</option>
              {kinds.map((kind) => (
                <option key={kind.value} value={kind.value}>
                  {kind.label}
                </option>
              ))}
            </select>
          </div>
          <div className="audit-log__field">
            <label htmlFor="audit-investor">{log.filters.investor}</label>
            <input
              id="audit-investor"
              type="email"
              name="investor"
              defaultValue={given.investor ?? ""}
              autoComplete="off"
            />
          </div>
          <div className="audit-log__field">
            <label htmlFor="audit-from">{log.filters.from}</label>
            <input id="audit-from" type="date" name="from" defaultValue={given.from ?? ""} />
          </div>
          <div className="audit-log__field">
            <label htmlFor="audit-to">{log.filters.to}</label>
            <input id="audit-to" type="date" name="to" defaultValue={given.to ?? ""} />
          </div>
          <div className="audit-log__actions">
            <button type="submit" className="button">
              {log.filters.apply}
            </button>
            <Link to="/financing/audit">{log.filters.clear}</Link>
          </div>
        </fieldset>
      </Form>

      {problems.length > 0 ? (
        <div className="audit-log__problems" role="alert">
          <ul>
            {problems.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
        </div>
      ) : null}

      {page ? (
        <>
          <p className="audit-log__summary">
            <span>{log.shown(page.rows.length)}</span>{" "}
            <a href={withQuery("/financing/audit.jsonl", filters)} download={log.exportFileName}>
              {log.exportLink}
            </a>
          </p>
          {page.rows.length === 0 ? (
            <p>{Object.keys(filters).length > 0 ? log.emptyFiltered : words.empty}</p>
          ) : (
            <ol className="audit-log__rows" aria-label={words.caption}>
              {page.rows.map((row) => (
                <li key={row.id} id={`row-${row.id}`} className="audit-log__row">
                  <p className="audit-log__event">
                    <span className="audit-log__number">{log.rowLabel(row.id)}</span> {row.event}
                  </p>
                  <dl className="audit-log__facts">
                    <div>
                      <dt>{log.columns.when}</dt>
                      <dd>
                        <time dateTime={row.at}>{formatRegistrationTime(row.at)}</time>
                      </dd>
                    </div>
                    <div>
                      <dt>{log.columns.who}</dt>
                      <dd>{row.actorEmail ? <EmailAddress email={row.actorEmail} /> : log.unknownActor}</dd>
                    </div>
                    {row.targetEmail || row.targetId ? (
                      <div>
                        <dt>{log.columns.whom}</dt>
                        <dd>{row.targetEmail ? <EmailAddress email={row.targetEmail} /> : row.targetId}</dd>
                      </div>
                    ) : null}
                    <div>
                      <dt>{log.columns.what}</dt>
                      <dd>
                        <code>{row.action}</code>
                      </dd>
                    </div>
                    {row.ip ? (
                      <div>
                        <dt>{log.columns.ip}</dt>
                        <dd>{row.ip}</dd>
                      </div>
                    ) : null}
                    {row.labelledDetails.map((detail) => (
                      <div key={detail.label}>
                        <dt>{detail.label}</dt>
                        <dd>{detail.value}</dd>
                      </div>
                    ))}
                  </dl>
                </li>
              ))}
            </ol>
          )}
          <nav aria-label={words.pages} className="audit-pages">
            <ul>
              {cursor !== null ? (
                <li>
                  <Link to={withQuery("/financing/audit", filters)}>{log.newest}</Link>
                </li>
              ) : null}
              {page.nextCursor !== null ? (
                <li>
                  <Link to={withQuery("/financing/audit", { ...filters, cursor: String(page.nextCursor) })}>
                    {log.older}
                  </Link>
                </li>
              ) : null}
            </ul>
          </nav>
        </>
      ) : null}
    </section>
  );
}

export const ErrorBoundary = () => <AdminRefusal className="audit-page" />;
