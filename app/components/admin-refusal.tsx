import { isRouteErrorResponse, Link, useRouteError } from "@remix-run/react";
import { adminContent } from "~/content/admin";

/**
 * The error boundary of the administrator's own pages: a refusal (403), a missing investor (404) or a
 * failure, said as an alert with the way back to the table.
 */
export function AdminRefusal({ className }: { className: string }) {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const heading =
    status === 404
      ? adminContent.errors.notFound
      : status === 403
        ? adminContent.errors.forbidden
        : adminContent.notices.failed;
  return (
    <section className={className} role="alert">
      <h1>{heading}</h1>
      <p>
        <Link to="/financing">{adminContent.audit.back}</Link>
      </p>
    </section>
  );
}
