import { isRouteErrorResponse, Link, useRouteError } from "@remix-run/react";
import { adminContent } from "~/content/admin";

/**
 * The error boundary of the administrator's own pages: a malformed address (400), a refusal (403), a
 * missing investor (404) or a failure, said as an alert with the way back to the table.
 */
export function AdminRefusal({ className }: { className: string }) {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  // A malformed address (400) is said in the words the server gave.
  const said = status === 400 && isRouteErrorResponse(error) && typeof error.data === "string" ? error.data : null;
  const heading =
    said ??
    (status === 404
      ? adminContent.errors.notFound
      : status === 403
        ? adminContent.errors.forbidden
        : adminContent.notices.failed);
  return (
    <section className={className} role="alert">
      <h1>{heading}</h1>
      <p>
        <Link to="/financing">{adminContent.audit.back}</Link>
      </p>
    </section>
  );
}
