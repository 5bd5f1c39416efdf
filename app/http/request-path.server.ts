/**
 * A request's path as Remix matches it to a route, worked out once by server.js, so that every rule
 * there (headers, CORS, the Origin check, body limits, the log's redaction) reads the path the router
 * reads, however the client spelled it: `/%66inancing/audit` is /financing/audit to Remix, so it must
 * be to the rules too (docs/requirements.md, "Security and reliability").
 *
 * Remix builds its URL with the WHATWG parser, which reads a backslash as a slash and resolves dot
 * segments (`%2e` counts as a dot), then decodes each segment on its own: an encoded slash (`%2F`)
 * stays inside its segment. Done here the same way, on the path as Express received it. Runs of
 * slashes are then made one: Remix serves no route at a path with an empty segment, but a secret in
 * such a path must still be redacted. Case is kept (the rules compare lower-cased).
 */

export type DecodedPath = {
  /** The path as Remix matches it; when `malformed`, decoded as far as it can be. */
  path: string;
  /** An escape that is not UTF-8 (`%E0%A4%A`): no route can match it, and the answer is 400. */
  malformed: boolean;
};

export function decodeRequestPath(rawPath: string): DecodedPath {
  let malformed = false;
  const segments = withoutDotSegments(rawPath.replace(/\\/g, "/").split("/")).map((segment) => {
    try {
      return decodeURIComponent(segment).replace(/\//g, "%2F");
    } catch {
      malformed = true;
      return decodeAsciiEscapes(segment);
    }
  });
  return { path: segments.join("/").replace(/\/{2,}/g, "/"), malformed };
}

/** The path of a request inside the app (a log line), decoded as server.js decoded it. */
export function decodedPathOf(request: Request): string {
  return decodeRequestPath(new URL(request.url).pathname).path;
}

const SINGLE_DOT = /^(?:\.|%2e)$/i;
const DOUBLE_DOT = /^(?:\.|%2e){2}$/i;

/** The WHATWG URL parser's dot segments: `.` is dropped, `..` drops the segment before it. */
function withoutDotSegments([first, ...rest]: string[]): string[] {
  const kept: string[] = [];
  for (const [index, segment] of rest.entries()) {
    const doubleDot = DOUBLE_DOT.test(segment);
    if (!doubleDot && !SINGLE_DOT.test(segment)) {
      kept.push(segment);
      continue;
    }
    if (doubleDot) kept.pop();
    // A path that ends in a dot segment ends in a slash.
    if (index === rest.length - 1) kept.push("");
  }
  return [first, ...kept];
}

/** A segment that is not UTF-8 as a whole: its ASCII escapes decoded (but a slash), so a word spelled with them still reads. */
function decodeAsciiEscapes(segment: string) {
  return segment.replace(/%[0-7][0-9a-f]/gi, (escape) => {
    const character = String.fromCharCode(parseInt(escape.slice(1), 16));
    return character === "/" ? escape : character;
  });
}
