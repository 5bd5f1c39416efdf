import http from "node:http";

/**
 * One HTTP request with exactly the headers given (no cookie jar, no
 * automatic Origin or content type), on a connection of its own: what a
 * hostile client sends. `chunked` sends the body without a Content-Length.
 */
export type RawRequest = {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  chunked?: boolean;
};

export type RawAnswer = { status: number; headers: http.IncomingHttpHeaders; body: string; setCookies: string[] };

export function sendRaw(baseUrl: string, request: RawRequest): Promise<RawAnswer> {
  const url = new URL(request.path, baseUrl);
  const body = request.body === undefined ? undefined : Buffer.from(request.body);
  const headers: Record<string, string> = { ...request.headers };
  if (request.chunked) headers["Transfer-Encoding"] = "chunked";
  else if (body !== undefined) headers["Content-Length"] = String(body.byteLength);
  return new Promise((resolve, reject) => {
    const outgoing = http.request(
      {
        host: url.hostname,
        port: url.port,
        method: request.method,
        path: url.pathname + url.search,
        headers,
        agent: false,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString("utf8"),
            setCookies: ([] as string[]).concat(response.headers["set-cookie"] ?? []),
          }),
        );
        response.on("error", reject);
      },
    );
    // A server that refuses early (413, 411) may close while the body is still going out.
    outgoing.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code !== "EPIPE" && error.code !== "ECONNRESET") reject(error);
    });
    if (body !== undefined) outgoing.write(body);
    outgoing.end();
  });
}

/** The name=value pair of a cookie that an answer sets, for the next request's Cookie header. */
export function cookiePair(answer: RawAnswer, name: string): string | undefined {
  return answer.setCookies.map((cookie) => cookie.split(";")[0]).find((pair) => pair.startsWith(`${name}=`));
}

/**
 * The notice of a redirect (remix-toast's flash in a signed cookie, read
 * without the secret: the signature protects the value, it does not hide it).
 */
export function toastOf(answer: RawAnswer): { type: string; message: string } | null {
  const pair = cookiePair(answer, "__toast");
  if (!pair) return null;
  const value = decodeURIComponent(pair.slice("__toast=".length));
  try {
    const data = JSON.parse(Buffer.from(value.slice(0, value.lastIndexOf(".")), "base64").toString("utf8")) as Record<
      string,
      { toast?: { type: string; message: string } } | undefined
    >;
    return Object.values(data).find((flash) => flash?.toast)?.toast ?? null;
  } catch {
    return null;
  }
}

/**
 * The message a refusal carries: `message` of a JSON answer, a plain-text
 * body, or the text of the page's alert and error elements (form and field errors).
 */
export function messageOf(answer: RawAnswer): string {
  const type = String(answer.headers["content-type"] ?? "");
  if (type.startsWith("application/json")) {
    try {
      const parsed = JSON.parse(answer.body) as { message?: unknown };
      return typeof parsed.message === "string" ? parsed.message.trim() : "";
    } catch {
      return "";
    }
  }
  if (type.startsWith("text/plain")) return answer.body.trim();
  if (type.startsWith("text/html")) {
    const alerts = [
      ...answer.body.matchAll(/<(\w+)[^>]*(?:role="alert"|class="[^"]*error[^"]*")[^>]*>([\s\S]*?)<\/\1>/g),
    ].map((match) => textOf(match[2]));
    return alerts.filter(Boolean).join(" | ");
  }
  return "";
}

function textOf(html: string) {
  return html
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/** The hidden honeypot fields of the first form on a page that has them (HoneypotFields). */
export function honeypotFieldsOf(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [input] of html.matchAll(/<input[^>]*name="[^"]*__confirm"[^>]*>/g)) {
    const name = /name="([^"]*)"/.exec(input)![1];
    fields[name] = /value="([^"]*)"/.exec(input)?.[1] ?? "";
  }
  return fields;
}
