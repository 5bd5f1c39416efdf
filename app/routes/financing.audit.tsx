import { type LinksFunction, type LoaderFunctionArgs, type MetaFunction, json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { AdminRefusal } from "~/components/admin-refusal";
import { investorTableLinks } from "~/components/investor-table";
import { adminContent } from "~/content/admin";
import { requireAdmin } from "~/http/auth.server";
import { AUDIT_PAGE_SIZE, formatRegistrationTime } from "~/lib/investor-table";
import { pageMeta } from "~/lib/meta";
import { describeChain, verifyAuditChain } from "~/models/audit-chain.server";
import { listAuditEvents } from "~/models/audit.server";

const words = adminContent.audit;

export const links: LinksFunction = () => investorTableLinks();

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const requested = Number(new URL(request.url).searchParams.get("page"));
  const page = Number.isSafeInteger(requested) && requested >= 1 ? requested : 1;
  const [{ events, total }, chain] = await Promise.all([
    listAuditEvents({ limit: AUDIT_PAGE_SIZE, offset: (page - 1) * AUDIT_PAGE_SIZE }),
    verifyAuditChain(),
  ]);
  const pageCount = Math.max(1, Math.ceil(total / AUDIT_PAGE_SIZE));
  return json({ events, total, page, pageCount, chain: { intact: chain.ok, sentences: describeChain(chain) } });
}

export const meta: MetaFunction = () => pageMeta(words.title, words.description);

export default function AuditPage() {
  const { events, page, pageCount, chain } = useLoaderData<typeof loader>();
  return (
    <section className="audit-page" aria-labelledby="audit-heading">
      <h1 id="audit-heading">{words.heading}</h1>
      <p>
        <Link to="/financing">{words.back}</Link>
      </p>
      <p className={chain.intact ? "audit-chain" : "audit-chain audit-chain--broken"}>
        <strong>{words.chain.label}:</strong> {chain.sentences.join(" ")}
      </p>
      <div className="investor-table__scroll">
        <table className="audit-table">
          <caption className="visually-hidden">{words.caption}</caption>
          <thead>
            <tr>
              <th scope="col">{words.columns.when}</th>
              <th scope="col">{words.columns.who}</th>
              <th scope="col">{words.columns.what}</th>
              <th scope="col">{words.columns.whom}</th>
              <th scope="col">{words.columns.details}</th>
            </tr>
          </thead>
          <tbody>
            {events.length === 0 ? (
              <tr>
                <td colSpan={5}>{words.empty}</td>
              </tr>
            ) : (
              events.map((event) => (
                <tr key={event.id}>
                  <td>{formatRegistrationTime(event.at)}</td>
                  <td>{event.actorEmail ?? ""}</td>
                  <td>{event.action}</td>
                  <td>{event.targetEmail ?? event.targetId ?? ""}</td>
                  <td>{event.details ?? ""}</td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
      <nav aria-label={words.pages} className="audit-pages">
        <p>{words.pageOf(page, pageCount)}</p>
        <ul>
          {page > 1 ? (
            <li>
              <Link to={`/financing/audit?page=${page - 1}`}>{words.newer}</Link>
            </li>
          ) : null}
          {page < pageCount ? (
            <li>
              <Link to={`/financing/audit?page=${page + 1}`}>{words.older}</Link>
            </li>
          ) : null}
        </ul>
      </nav>
    </section>
  );
}

export const ErrorBoundary = () => <AdminRefusal className="audit-page" />;
