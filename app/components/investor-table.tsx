import { Form, Link, useFetchers, useLocation, useSubmit, type SubmitFunction } from "@remix-run/react";
import { useEffect, useRef, useState, type KeyboardEvent } from "react";
import { adminContent } from "~/content/admin";
import { administratorsPage } from "~/content/administrators";
import { alertsPage } from "~/content/alerts";
import { tracePage } from "~/content/copy-trace";
import { investorPageContent } from "~/content/investor-page";
import { investorStepsContent } from "~/content/investor-steps";
import { libraryContent } from "~/content/library";
import { ndaAdminContent } from "~/content/nda";
import { pipelineContent } from "~/content/pipeline";
import { portalFeaturesContent } from "~/content/portal-features";
import { questionsContent } from "~/content/questions";
import { useHydrated } from "~/hooks/use-hydrated";
import {
  DEFAULT_TABLE_STATE,
  NDA_FILTERS,
  describeSecondFactor,
  formatRegistrationTime,
  investorPagePath,
  investorTableSearch,
  type InvestorTableData,
  type InvestorTableRow,
  type InvestorTableState,
  type SortColumn,
} from "~/lib/investor-table";
import { PIPELINE_STAGES } from "~/lib/pipeline-stages";
import styles from "~/styles/investor-table.css";
import { AddressLines } from "./address-lines";
import { SudoNotice } from "./sudo-notice";

const words = adminContent.table;
const rowWords = investorPageContent.table;
const verifyWords = investorStepsContent.verify;

type InvestorRow = InvestorTableRow;
type Sudo = { until: string | null; confirmHref: string };

export const investorTableLinks = () => [{ rel: "stylesheet", href: styles }];

/** The administrator's investor table: search, filter, sortable headers, pages, CSV, NDA flags, delete. */
export function InvestorTable({ data, sudo, ndaWaiting }: { data: InvestorTableData; sudo: Sudo; ndaWaiting: number }) {
  const { state, rows, total, pageCount, returnTo } = data;
  const rowControls = useRowControls(sudo);
  const csvHref = `/financing/investors.csv${investorTableSearch(state, { page: 1 })}`;
  useFocusFromFragment();
  return (
    <section className="investor-table" aria-labelledby="investor-table-heading">
      <div className="investor-table__top">
        <h1 id="investor-table-heading" tabIndex={-1}>
          {words.heading}
        </h1>
        <p className="investor-table__links">
          <Link to="/financing/audit">{words.auditLink}</Link>
          <Link to="/financing/admins">{administratorsPage.link}</Link>
          <Link to="/financing/library">{libraryContent.link}</Link>
          <Link to="/financing/trace">{tracePage.link}</Link>
          <Link to="/financing/alerts">{alertsPage.link}</Link>
          <Link to="/financing/nda">{ndaAdminContent.link}</Link>
          {ndaWaiting > 0 ? (
            <Link to={`/financing${investorTableSearch(DEFAULT_TABLE_STATE, { nda: "countersign" })}`}>
              {ndaAdminContent.waitingLink(ndaWaiting)}
            </Link>
          ) : null}
          <Link to="/financing/question-queue">{questionsContent.queue.link}</Link>
          <Link to="/financing/pipeline">{pipelineContent.link}</Link>
          <Link to="/financing/settings">{portalFeaturesContent.link}</Link>
        </p>
      </div>
      <SudoNotice sudo={sudo} />
      <Form method="get" action="/financing" className="investor-table__search" role="search">
        <label>
          <span>{words.searchLabel}</span>
          <input type="search" name="q" defaultValue={state.q} key={state.q} />
        </label>
        <label>
          <span>{words.filterLabel}</span>
          <select name="nda" defaultValue={state.nda} key={state.nda}>
            {NDA_FILTERS.map((filter) => (
              <option key={filter} value={filter}>
                {words.filters[filter]}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span>{pipelineContent.stageFilter}</span>
          <select name="stage" defaultValue={state.stage} key={state.stage}>
            <option value="all">{pipelineContent.allStages}</option>
            {PIPELINE_STAGES.map((stage) => (
              <option key={stage} value={stage}>
                {pipelineContent.stages[stage]}
              </option>
            ))}
          </select>
        </label>
        {state.sort !== "registered" || state.dir !== "desc" ? (
          <>
            <input type="hidden" name="sort" value={state.sort} />
            <input type="hidden" name="dir" value={state.dir} />
          </>
        ) : null}
        <button type="submit" className="button">
          {words.apply}
        </button>
        {state.q || state.nda !== "all" || state.stage !== "all" ? <Link to="/financing">{words.clear}</Link> : null}
      </Form>
      <p className="investor-table__summary">
        <span role="status">{words.total(total)}</span>{" "}
        <a href={csvHref} download={adminContent.csvFileName}>
          {words.csv}
        </a>
      </p>
      <div className="investor-table__scroll">
        <table>
          <caption className="visually-hidden">{words.caption}</caption>
          <thead>
            <tr>
              <SortableHeader column="name" state={state} label={words.columns.name} />
              <SortableHeader column="email" state={state} label={words.columns.email} />
              <th scope="col">{words.columns.address}</th>
              <SortableHeader column="registered" state={state} label={words.columns.registered} />
              <th scope="col">{rowWords.verified}</th>
              <th scope="col">{rowWords.secondFactor}</th>
              <th scope="col">{verifyWords.tableColumn}</th>
              <th scope="col">{words.columns.ndaSent}</th>
              <th scope="col">{words.columns.ndaSigned}</th>
              <th scope="col">{words.columns.delete}</th>
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 ? (
              <tr>
                <td colSpan={10}>{words.empty}</td>
              </tr>
            ) : (
              rows.map((row, index) => (
                <InvestorTableRow
                  key={row.id}
                  row={row}
                  next={rows[index + 1] ? rowAnchor(rows[index + 1]) : "investor-table-heading"}
                  returnTo={returnTo}
                  controls={rowControls}
                />
              ))
            )}
          </tbody>
        </table>
      </div>
      <Pagination state={state} pageCount={pageCount} />
    </section>
  );
}

function SortableHeader({ column, state, label }: { column: SortColumn; state: InvestorTableState; label: string }) {
  const active = state.sort === column;
  const nextDir = active ? (state.dir === "asc" ? "desc" : "asc") : column === "registered" ? "desc" : "asc";
  return (
    <th scope="col" aria-sort={active ? (state.dir === "asc" ? "ascending" : "descending") : undefined}>
      <Link to={`/financing${investorTableSearch(state, { sort: column, dir: nextDir, page: 1 })}`}>
        {label}
        <span aria-hidden="true">{active ? (state.dir === "asc" ? " ▲" : " ▼") : ""}</span>
      </Link>
    </th>
  );
}

function Pagination({ state, pageCount }: { state: InvestorTableState; pageCount: number }) {
  if (pageCount <= 1) return null;
  const pages = visiblePages(state.page, pageCount);
  return (
    <nav aria-label={words.pagination} className="investor-table__pages">
      <ul>
        {state.page > 1 ? (
          <li>
            <Link to={`/financing${investorTableSearch(state, { page: state.page - 1 })}`}>{words.previous}</Link>
          </li>
        ) : null}
        {pages.map((page, index) =>
          page === null ? (
            <li key={`gap-${index}`} aria-hidden="true">
              …
            </li>
          ) : (
            <li key={page}>
              <Link
                to={`/financing${investorTableSearch(state, { page })}`}
                aria-current={page === state.page ? "page" : undefined}
                aria-label={words.pageLabel(page)}
              >
                {page}
              </Link>
            </li>
          ),
        )}
        {state.page < pageCount ? (
          <li>
            <Link to={`/financing${investorTableSearch(state, { page: state.page + 1 })}`}>{words.next}</Link>
          </li>
        ) : null}
      </ul>
    </nav>
  );
}

/** The first, the last, and two either side of the current page; null marks a gap. */
function visiblePages(current: number, count: number): (number | null)[] {
  const pages: (number | null)[] = [];
  for (let page = 1; page <= count; page++) {
    const near = Math.abs(page - current) <= 2;
    if (page === 1 || page === count || near) pages.push(page);
    else if (pages[pages.length - 1] !== null) pages.push(null);
  }
  return pages;
}

/**
 * What every row's forms share, asked for once per table rather than once per row (fifty rows
 * made 150 fetchers and 100 hydration checks on each render): whether JavaScript has taken over,
 * the submit that runs a form as a fetcher, and the form data of the fetchers still on their way.
 */
type RowControls = { hydrated: boolean; submit: SubmitFunction; pending: Map<string, FormData>; sudo: Sudo };

const fetcherKey = (intent: "nda-sent" | "nda-signed" | "delete", row: InvestorRow) => `${intent}-${row.id}`;

function useRowControls(sudo: Sudo): RowControls {
  const hydrated = useHydrated();
  const submit = useSubmit();
  const pending = new Map<string, FormData>();
  for (const fetcher of useFetchers()) if (fetcher.formData) pending.set(fetcher.key, fetcher.formData);
  return { hydrated, submit, pending, sudo };
}

/** The id of a row's link: what a deletion's redirect names in its fragment, for the focus to land on. */
const rowAnchor = (row: InvestorRow) => `investor-${row.id}`;

/**
 * After a deletion the table comes back with a fragment naming the row after it (or the heading): with
 * JavaScript the focus goes there, not to the top of the page; without it the browser scrolls there.
 */
function useFocusFromFragment() {
  const location = useLocation();
  useEffect(() => {
    const target = location.hash.slice(1);
    if (!/^investor-/.test(target)) return;
    document.getElementById(target)?.focus();
  }, [location.key, location.hash]);
}

/** The flags the row shows: while a change is on its way, the value it will have (signed implies sent). */
function optimisticFlags(row: InvestorRow, sentForm?: FormData, signedForm?: FormData) {
  let sent = row.isNDASent;
  let signed = row.isNDASigned;
  const sentValue = sentForm?.get("state");
  const signedValue = signedForm?.get("state");
  if (sentValue === "yes") sent = true;
  if (sentValue === "no") [sent, signed] = [false, false];
  if (signedValue === "yes") [sent, signed] = [true, true];
  if (signedValue === "no") signed = false;
  return { sent, signed };
}

function InvestorTableRow({
  row,
  next,
  returnTo,
  controls,
}: {
  row: InvestorRow;
  next: string;
  returnTo: string;
  controls: RowControls;
}) {
  const { pending } = controls;
  const { sent, signed } = optimisticFlags(
    row,
    pending.get(fetcherKey("nda-sent", row)),
    pending.get(fetcherKey("nda-signed", row)),
  );
  return (
    <tr>
      <td data-label={words.columns.name}>
        {row.fullName ? (
          <a href={investorPagePath(row.id)} id={rowAnchor(row)}>
            {row.fullName}
          </a>
        ) : null}
      </td>
      <td data-label={words.columns.email}>
        {row.fullName ? (
          row.email
        ) : (
          <a href={investorPagePath(row.id)} id={rowAnchor(row)}>
            {row.email}
          </a>
        )}
      </td>
      <td data-label={words.columns.address}>
        <AddressLines address={row.address} lines={row.addressLines} />
      </td>
      <td data-label={words.columns.registered}>{formatRegistrationTime(row.createdAt)}</td>
      <td data-label={rowWords.verified}>{row.emailVerified ? words.yes : words.no}</td>
      <td data-label={rowWords.secondFactor}>{describeSecondFactor(row.secondFactor)}</td>
      <td data-label={verifyWords.tableColumn}>
        <AccreditationCell verification={row.verification} />
      </td>
      <td data-label={words.columns.ndaSent}>
        <FlagForm
          controls={controls}
          row={row}
          intent="nda-sent"
          value={sent}
          label={words.ndaSentFor(row.email)}
          returnTo={returnTo}
        />
      </td>
      <td data-label={words.columns.ndaSigned}>
        <FlagForm
          controls={controls}
          row={row}
          intent="nda-signed"
          value={signed}
          label={words.ndaSignedFor(row.email)}
          returnTo={returnTo}
        />
      </td>
      <td data-label={words.columns.delete}>
        <DeleteControl row={row} next={next} returnTo={returnTo} controls={controls} />
      </td>
    </tr>
  );
}

/** Until when the latest verification stands, or that it expired: its date as the investor's page gives it. */
function AccreditationCell({ verification }: { verification: InvestorRow["verification"] }) {
  if (!verification) return null;
  const date = verification.expiresAt.slice(0, 10);
  return <>{verification.expired ? verifyWords.tableExpired(date) : verifyWords.tableUntil(date)}</>;
}

/**
 * One flag, one small form: with JavaScript it submits when the administrator makes a choice, through
 * its Save button without. A choice is a pick with the mouse or by touch, or Enter (or leaving the
 * dropdown) after moving with the keyboard: arrow keys on a closed dropdown change its value in
 * Chromium, and must only move the selection, never record each state in turn (WCAG 3.2.2).
 * The row's forms are plain forms submitted as fetchers: their actions are absolute, and
 * fetcher.Form / Link would resolve them against the routes three times per row on every render.
 */
function FlagForm({
  controls,
  row,
  intent,
  value,
  label,
  returnTo,
}: {
  controls: RowControls;
  row: InvestorRow;
  intent: "nda-sent" | "nda-signed";
  value: boolean;
  label: string;
  returnTo: string;
}) {
  const selectId = `${intent}-${row.id}`;
  const saved = value ? "yes" : "no";
  // The value the keyboard has moved to but not yet chosen; null while the dropdown shows the saved one.
  const [draft, setDraft] = useState<string | null>(null);
  const movedByKey = useRef(false);
  const send = (form: HTMLFormElement | null) => {
    setDraft(null);
    controls.submit(form, { navigate: false, fetcherKey: fetcherKey(intent, row) });
  };
  return (
    <form method="post" action={`/financing/investors/${row.id}`} className="flag-form">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="returnTo" value={returnTo} />
      <label htmlFor={selectId} className="visually-hidden">
        {label}
      </label>
      <select
        id={selectId}
        name="state"
        value={draft ?? saved}
        onKeyDown={(event) => {
          if (event.key === "Enter" && draft !== null) {
            event.preventDefault();
            if (draft !== saved) send(event.currentTarget.form);
            else setDraft(null);
            return;
          }
          movedByKey.current = movesClosedSelect(event);
        }}
        onChange={(event) => {
          if (movedByKey.current) {
            movedByKey.current = false;
            setDraft(event.currentTarget.value);
          } else {
            send(event.currentTarget.form);
          }
        }}
        onBlur={(event) => {
          movedByKey.current = false;
          if (draft !== null && draft !== saved) send(event.currentTarget.form);
          else setDraft(null);
        }}
      >
        <option value="yes">{words.yes}</option>
        <option value="no">{words.no}</option>
      </select>
      {controls.hydrated ? null : (
        <button type="submit" className="button button--small" aria-label={`${words.save}: ${label}`}>
          {words.save}
        </button>
      )}
    </form>
  );
}

/** Keys that change a closed dropdown's value where they land: arrows, Home and End, pages, type-ahead letters. */
function movesClosedSelect(event: KeyboardEvent<HTMLSelectElement>) {
  if (event.altKey || event.ctrlKey || event.metaKey) return false;
  return /^(Arrow(Up|Down|Left|Right)|Home|End|PageUp|PageDown)$/.test(event.key) || /^\S$/u.test(event.key);
}

/**
 * With JavaScript a confirm() naming the investor before the POST; without it, or before "Confirm it's
 * you", a link to the confirmation page (which says what is needed first).
 */
function DeleteControl({
  row,
  next,
  returnTo,
  controls,
}: {
  row: InvestorRow;
  next: string;
  returnTo: string;
  controls: RowControls;
}) {
  const action = `/financing/investors/${row.id}/delete`;
  if (!controls.hydrated || !controls.sudo.until) {
    return (
      <a href={`${action}?${new URLSearchParams({ returnTo, next })}`} aria-label={words.deleteFor(row.email)}>
        {words.delete}
      </a>
    );
  }
  return (
    <form
      method="post"
      action={action}
      onSubmit={(event) => {
        event.preventDefault();
        const who = row.fullName ? `${row.fullName} (${row.email})` : row.email;
        if (window.confirm(`${adminContent.deletePage.question}${rowWords.deleteQuestionFor(who)}`)) {
          controls.submit(event.currentTarget, { navigate: false, fetcherKey: fetcherKey("delete", row) });
        }
      }}
    >
      <input type="hidden" name="returnTo" value={returnTo} />
      <input type="hidden" name="next" value={next} />
      <button
        type="submit"
        className="button button--small button--danger"
        aria-label={words.deleteFor(row.email)}
        disabled={controls.pending.has(fetcherKey("delete", row))}
      >
        {words.delete}
      </button>
    </form>
  );
}
