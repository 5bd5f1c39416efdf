import type { ReactElement } from "react";
import { renderToString } from "react-dom/server";

/**
 * React's mark for a Suspense boundary the server gave up on: what it writes in place of a
 * block that threw, or that was still waiting, and renderToString reports neither otherwise.
 */
const ABANDONED_BOUNDARY = "<!--$!-->";

/**
 * A whole HTML document as one string, and whether every part of it rendered.
 * Why not a stream: no loader defers data, and the blocks that load on demand in the browser
 * are rendered at once on the server, so nothing is left to send after the first byte; streaming
 * cost about a fifth of a large page's render (docs/performance.md).
 */
export function renderDocument(document: ReactElement): { html: string; complete: boolean } {
  const html = "<!DOCTYPE html>" + renderToString(document);
  return { html, complete: !html.includes(ABANDONED_BOUNDARY) };
}
