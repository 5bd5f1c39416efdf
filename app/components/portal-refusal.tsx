import { isRouteErrorResponse, Link, useRouteError } from "@remix-run/react";
import { materialsRefusal } from "~/content/portal";

/**
 * The ErrorBoundary of the materials pages: a logged-in user whose NDA is not
 * signed (403) is told why and where to go; anything else is rethrown to the root.
 */
export function MaterialsRefusal() {
  const error = useRouteError();
  if (!isRouteErrorResponse(error) || error.status !== 403) throw error;
  return (
    <section className="portal-status" aria-labelledby="materials-refusal-heading">
      <h1 id="materials-refusal-heading">{materialsRefusal.heading}</h1>
      <p>{materialsRefusal.text}</p>
      <p>
        <Link to="/financing">{materialsRefusal.back}</Link>
      </p>
    </section>
  );
}
