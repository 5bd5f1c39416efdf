/**
 * What a browser or API client says about itself (its User-Agent), kept short, and read back in
 * words ("Chrome on macOS") by bowser: the sessions page, the API access list and a passkey's
 * default name.
 */
import Bowser from "bowser";
import { deviceWords } from "~/content/account-sessions";

/** Long enough for any real browser's User-Agent; a longer one is cut, never refused. */
export const USER_AGENT_MAX_LENGTH = 512;

/** A program's own User-Agent ("curl/8.4.0") is shown as it is, this much of it. */
const DESCRIBED_AGENT_MAX_LENGTH = 80;

/** Where a sign-in came from, as recorded with its session or API token family. */
export type Client = { userAgent: string | null; ip: string | null };

/** The request's client: its User-Agent, cut to USER_AGENT_MAX_LENGTH (null when it sent none), and address. */
export function clientOf(request: Request, ip: string): Client {
  const userAgent = request.headers.get("User-Agent")?.trim().slice(0, USER_AGENT_MAX_LENGTH) || null;
  return { userAgent, ip };
}

/** The browser and system a User-Agent names ("Chrome on macOS"), or null when it names neither. */
export function deviceName(userAgent: string | null): string | null {
  if (!userAgent) return null;
  const { browser, os } = Bowser.parse(userAgent);
  if (!browser.name && !os.name) return null;
  return deviceWords.named(browser.name || null, os.name || null);
}

/** A client in words: its browser and system, else what it calls itself (a program), else "Unknown" (rows from before). */
export function describeUserAgent(userAgent: string | null): string {
  return deviceName(userAgent) ?? userAgent?.slice(0, DESCRIBED_AGENT_MAX_LENGTH) ?? deviceWords.unknown;
}
