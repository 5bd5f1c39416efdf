import { firm } from "~/content/firm";
import { httpErrors } from "~/content/http-errors";

/**
 * The page a browser gets when server.js refuses or fails a request before Remix
 * renders anything (a malformed URL, a body too large, a cross-origin form, an
 * unexpected error, a download refused): styled like the site, with a link home (and to what to do
 * next, when there is something), and never a stack or
 * a file path. Self-contained (inline styles, no script), so it needs nothing
 * that could itself have failed.
 */
export function errorPageHtml(status: number, message: string, next?: { href: string; label: string }): string {
  const title = httpErrors.titles[status] ?? httpErrors.titles[status >= 500 ? 500 : 400];
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(`${title} | ${firm.shortName}`)}</title>
<style>
  body { margin: 0; font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
    line-height: 1.6; color: #1a1f2b; background: #ffffff; }
  header { background: #0b3d91; color: #ffffff; padding: 1rem 1.25rem; font-weight: 700; }
  header a { color: #ffffff; text-decoration: none; }
  main { max-width: 1120px; margin: 0 auto; padding: 4rem 1.25rem; }
  a { color: #0b3d91; }
  a:focus-visible { outline: 3px solid #f59e0b; outline-offset: 2px; }
</style>
</head>
<body>
<header><a href="/">${escapeHtml(firm.shortName)}</a></header>
<main class="error-page">
<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(message)}</p>
${next ? `<p><a href="${escapeHtml(next.href)}">${escapeHtml(next.label)}</a></p>\n` : ""}<p><a href="/">${escapeHtml(httpErrors.homeLink)}</a></p>
</main>
</body>
</html>
`;
}

function escapeHtml(text: string) {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}
