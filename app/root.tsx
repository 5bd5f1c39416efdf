import type { LinksFunction } from "@remix-run/node";
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLoaderData,
  useRouteError,
} from "@remix-run/react";
import { useEffect, type ReactNode } from "react";
import { SiteFooter } from "~/components/site-footer";
import { SiteHeader } from "~/components/site-header";
import { Toasts } from "~/components/toasts";
import { firmSettings } from "~/content/firm";
import { useCurrentYear } from "~/hooks/current-year";
import { useNonce } from "~/hooks/nonce";
import appStyles from "~/styles/app.css";
import { loader } from "./root.server";

export { loader };

export const links: LinksFunction = () => [
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "stylesheet", href: appStyles },
];

// "<" escaped, so that no setting can close the script element.
const firmSettingsScript = `window.__firmSettings=${JSON.stringify(firmSettings).replace(/</g, "\\u003c")}`;

function Document({ children, title }: { children: ReactNode; title?: string }) {
  const nonce = useNonce();
  const year = useCurrentYear();
  // Browser tests wait for this before they click (see tests/e2e/support/fixtures.ts).
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return (
    <html lang="en" suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {/* The firm's settings and the server's year for the browser's render, before any module runs (app/content/firm.ts). */}
        <script
          nonce={nonce}
          dangerouslySetInnerHTML={{ __html: `${firmSettingsScript};window.__currentYear=${year}` }}
        />
        {title ? <title>{title}</title> : <Meta />}
        <Links />
      </head>
      <body>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  const { toast } = useLoaderData<typeof loader>();
  return (
    <Document>
      <Outlet />
      <Toasts toast={toast} />
    </Document>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  // The server's own refusal of a page's request (a form from another origin, a body too large): its words,
  // as the page without JavaScript shows them, not a "try again" that never helps.
  const refusal = isRouteErrorResponse(error) && error.status < 500 ? refusalOf(error.data) : null;
  const title = notFound ? "Page not found" : (refusal?.title ?? "Something went wrong");
  const text = notFound
    ? "The page you are looking for does not exist or has moved."
    : (refusal?.message ?? "We could not show this page. Please try again in a moment.");
  return (
    <Document title={title}>
      <SiteHeader />
      <main id="main" className="page error-page">
        <h1>{title}</h1>
        <p>{text}</p>
        <p>
          <a href="/">Go to the home page</a>
        </p>
      </main>
      <SiteFooter />
    </Document>
  );
}

/** The words of a refusal server.js answered a page's script with (`{ title, message }`), if that is what this is. */
function refusalOf(data: unknown): { title: string; message: string } | null {
  const { title, message } = (data ?? {}) as { title?: unknown; message?: unknown };
  return typeof title === "string" && typeof message === "string" ? { title, message } : null;
}
