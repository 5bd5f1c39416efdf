import { isRouteErrorResponse, Link, useRouteError } from "@remix-run/react";
import type { ReactNode } from "react";
import { adminContent } from "~/content/admin";
import { readingContent } from "~/content/library-reading";
import { formatRegistrationTime } from "~/lib/investor-table";
import styles from "~/styles/reading-report.css";

export const readingTableLinks = () => [{ rel: "stylesheet", href: styles }];

/** A cell: its content, and whether it is a number (set right, as figures are compared down a column). */
export type ReadingCell = { value: ReactNode; number?: boolean };

/**
 * A table of the reading report: the first cell of a row names it; below 40rem each row becomes a card
 * whose lines carry their column's label.
 */
export function ReadingTable({
  caption,
  columns,
  rows,
}: {
  caption: string;
  columns: readonly string[];
  rows: { key: string; cells: ReadingCell[] }[];
}) {
  return (
    <table className="audit-table reading-table">
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          {columns.map((column) => (
            <th key={column} scope="col">
              {column}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map(({ key, cells: [first, ...rest] }) => (
          <tr key={key}>
            <th scope="row" data-label={columns[0]}>
              <span>{first.value}</span>
            </th>
            {rest.map((cell, index) => (
              <td
                key={columns[index + 1]}
                data-label={columns[index + 1]}
                className={cell.number ? "reading-table__number" : undefined}
              >
                <span>{cell.value}</span>
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** When a document was opened, in the portal's date format; "Never" for a document nobody opened. */
export function OpenedAt({ at }: { at: number | null }) {
  if (at === null) return <>{readingContent.never}</>;
  const iso = new Date(at).toISOString();
  return <time dateTime={iso}>{formatRegistrationTime(iso)}</time>;
}

/** The reading pages' error boundary: the server's words for a malformed or unknown document, else a refusal. */
export function ReadingRefusal() {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const said = (status === 400 || status === 404) && isRouteErrorResponse(error) && typeof error.data === "string";
  const heading = said
    ? (error.data as string)
    : status === 403
      ? adminContent.errors.forbidden
      : adminContent.notices.failed;
  return (
    <section className="investor-page" role="alert">
      <h1>{heading}</h1>
      <p>
        {said ? (
          <Link to="/financing/library/reading">{readingContent.readers.back}</Link>
        ) : (
          <Link to="/financing">{adminContent.audit.back}</Link>
        )}
      </p>
    </section>
  );
}
