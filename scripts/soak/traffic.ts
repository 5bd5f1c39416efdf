/**
 * The soak's mixed traffic: the kinds of request each connection picks from,
 * and the answers each request may get. Every status outside `expected` is a
 * failure; `byDesign` lists the refusals the issue allows (the limiter's 429).
 */
import type { Request } from "autocannon";
import { origin } from "../bench/config";

export type Sessions = {
  investorCookie: string;
  signedInvestorCookie: string;
  adminCookie: string;
  adminBearer: string;
};

export type Planned = {
  label: string;
  expected: number[];
  byDesign: number[];
  request: Request;
};

/** Status counts per label, filled in as the answers arrive. */
export type Tally = Map<string, Map<number, number>>;

/**
 * Accounts whose wrong-password logins are spread thin enough never to reach the 20-failure lock:
 * about 29 failed logins a second land on the pool, so six accounts a second of the run keep each at
 * about 5 on average, where the chance that any one reaches 20 is under one in a thousand (a 5-minute
 * run with 60 s's 300 accounts locked hundreds of them, and with three a second, two).
 */
export const wrongPasswordPool = (seconds: number) => Math.max(300, Math.ceil(seconds * 6));
export const wrongPasswordAccount = (n: number) => `soak-wrong-${n}@example.com`;

/** One client address: the limiter's 10 auth requests a minute are meant to refuse most of what it sends. */
export const BUSY_ADDRESS = "203.0.113.7";

const octet = () => 1 + Math.floor(Math.random() * 254);
/** A visitor of its own (the server trusts one proxy hop), so the per-address limit sees many people. */
const someVisitor = () => `10.${octet()}.${octet()}.${octet()}`;

export function plannedTraffic(
  sessions: Sessions,
  investor: { email: string; password: string },
  wrongPasswordAccounts: number,
): Planned[] {
  const page = (label: string, path: string, cookie?: string): Planned => ({
    label,
    expected: [200],
    byDesign: [],
    request: { method: "GET", path, headers: cookie ? { Cookie: cookie } : {} },
  });
  const wrongLogin = (label: string, address: () => string, byDesign: number[]): Planned => ({
    label,
    expected: [401],
    byDesign,
    request: {
      method: "POST",
      path: "/api/auth/login",
      headers: { "Content-Type": "application/json" },
      setupRequest: (request) => ({
        ...request,
        headers: { ...request.headers, "X-Forwarded-For": address() },
        body: JSON.stringify({
          email: wrongPasswordAccount(Math.floor(Math.random() * wrongPasswordAccounts)),
          password: "not-the-password",
        }),
      }),
    },
  });
  return [
    page("GET / (public)", "/"),
    page("GET /faq (public)", "/faq"),
    {
      label: "page login, right password",
      expected: [302],
      byDesign: [],
      request: {
        method: "POST",
        path: "/financing/login",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: origin() },
        body: new URLSearchParams(investor).toString(),
        setupRequest: (request) => ({ ...request, headers: { ...request.headers, "X-Forwarded-For": someVisitor() } }),
      },
    },
    page("GET /pricing (public)", "/pricing"),
    page("investor: /financing", "/financing", sessions.investorCookie),
    wrongLogin("API login, wrong password", someVisitor, []),
    page("GET /aboutus (public)", "/aboutus"),
    page("investor: /financing/materials", "/financing/materials", sessions.signedInvestorCookie),
    page("administrator: /financing", "/financing", sessions.adminCookie),
    page("administrator: /financing?q=smith&nda=signed", "/financing?q=smith&nda=signed", sessions.adminCookie),
    page("administrator: /financing/audit", "/financing/audit", sessions.adminCookie),
    {
      label: "API: get_investors?limit=50",
      expected: [200],
      byDesign: [],
      request: {
        method: "GET",
        path: "/api/user/get_investors?limit=50",
        headers: { Authorization: `Bearer ${sessions.adminBearer}` },
      },
    },
    wrongLogin(`API login from one busy address (${BUSY_ADDRESS})`, () => BUSY_ADDRESS, [429]),
  ];
}

/**
 * The one request autocannon sends over and over: each time a kind picked at
 * random, so that the 50 connections keep a steady mix instead of all reaching
 * the same page at once; each answer is counted under its kind's label.
 */
export function randomMix(planned: Planned[], tally: Tally): Request {
  for (const { label } of planned) tally.set(label, new Map());
  return {
    setupRequest: (defaults, context) => {
      const { label, request } = planned[Math.floor(Math.random() * planned.length)];
      context.label = label;
      const chosen = {
        ...defaults,
        ...request,
        headers: { ...defaults.headers, ...request.headers },
        body: request.body ?? "",
      };
      return request.setupRequest ? request.setupRequest(chosen, context) : chosen;
    },
    onResponse: (status, _body, context) => {
      const counts = tally.get(String(context.label))!;
      counts.set(status, (counts.get(status) ?? 0) + 1);
    },
  };
}
