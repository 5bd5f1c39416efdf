/**
 * Stamped copies in flight per credential, counted at the edge (server.js) before the app does any work for
 * the request. The stamping pool holds each reader to the same number (decision 0027), but a refusal there
 * comes after a whole request's work on the event loop (routing, the session, the document's access): twenty
 * asked at once cost 100-180 ms of it, and every other reader's answer waited that long behind them
 * (scripts/bench/stamping-share.ts). Here a refusal costs reading one header.
 *
 * The key is the credential as sent (the session cookie, or the bearer token), unverified: whoever holds it is
 * the only one it can refuse, and a made-up one is let through to the app, which refuses it. A user with two
 * sessions still meets the pool's own limit, which counts by account.
 */
import { materialsMessages } from "~/content/materials";
import { COPIES_IN_FLIGHT_PER_READER, STAMPING_RETRY_AFTER_SECONDS } from "~/server/stamp-pool.server";
import { SESSION_COOKIE_NAME } from "./auth.server";
import { copyRefusalParts } from "./stamped-pdf.server";

/** The addresses that answer with a stamped copy: the shipped PDF, a library document and one of its versions. */
const STAMPED_COPY_PATH = /^\/(?:pdfs\/download\.pdf|financing\/materials\/[^/]+(?:\/versions\/[^/]+)?)$/;

const inFlight = new Map<string, number>();

type CopyRequest = { method: string; path: string; cookie?: string; authorization?: string };

/** What the edge answers a copy asked for beyond the share: the pool's own 429, word for word. */
export const copyRefusal = copyRefusalParts(429, materialsMessages.readerBusy, STAMPING_RETRY_AFTER_SECONDS);

/**
 * Takes a place for a request of a stamped copy: `pass` when it is no such request (or carries no credential),
 * `refuse` when its credential already has its copies in flight, else the function that gives the place back
 * (call it once the response has closed).
 */
export function enterCopyGate(request: CopyRequest): "pass" | "refuse" | (() => void) {
  if (request.method !== "GET" || !STAMPED_COPY_PATH.test(request.path)) return "pass";
  const key = credentialOf(request);
  if (key === null) return "pass";
  const held = inFlight.get(key) ?? 0;
  if (held >= COPIES_IN_FLIGHT_PER_READER) return "refuse";
  inFlight.set(key, held + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const left = (inFlight.get(key) ?? 1) - 1;
    if (left === 0) inFlight.delete(key);
    else inFlight.set(key, left);
  };
}

function credentialOf({ cookie, authorization }: CopyRequest): string | null {
  if (authorization?.startsWith("Bearer ")) return `bearer ${authorization.slice(7)}`;
  const session = cookie
    ?.split(";")
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${SESSION_COOKIE_NAME}=`));
  return session ? `cookie ${session.slice(SESSION_COOKIE_NAME.length + 1)}` : null;
}
