/**
 * The administrator's investor table: its rows and its URL state (search,
 * NDA filter, sort, page), shared by the server model and the component.
 */
import { investorPageContent } from "~/content/investor-page";
import { PIPELINE_STAGES, type PipelineStage } from "./pipeline-stages";
import type { InvestorRow } from "./user-shape";

export const INVESTOR_PAGE_SIZE = 50;
export const AUDIT_PAGE_SIZE = 50;
export const SEARCH_MAX_LENGTH = 200;

/** "countersign": signed in the portal, waiting for the firm's countersignature. */
export const NDA_FILTERS = ["all", "not-sent", "sent", "countersign", "signed"] as const;
export type NdaFilter = (typeof NDA_FILTERS)[number];

export const SORT_COLUMNS = ["name", "email", "registered"] as const;
export type SortColumn = (typeof SORT_COLUMNS)[number];
export type SortDirection = "asc" | "desc";

export type InvestorTableState = {
  q: string;
  nda: NdaFilter;
  /** Only the investors who reached this stage of the pipeline ("all": every one). */
  stage: PipelineStage | "all";
  sort: SortColumn;
  dir: SortDirection;
  page: number;
};

export type { InvestorRow };

/**
 * A row as the table shows it: the investor, the lines of their address (null before migration 019),
 * whether their e-mail address is verified, their second factor, and until when the firm's latest
 * verification of how they qualify stands (null: none recorded).
 */
export type InvestorTableRow = InvestorRow & {
  addressLines: string | null;
  emailVerified: boolean;
  secondFactor: { authenticator: boolean; passkeys: number };
  verification: { expiresAt: string; expired: boolean } | null;
};

export type InvestorTableData = {
  state: InvestorTableState;
  rows: InvestorTableRow[];
  total: number;
  pageCount: number;
  /** The table's own URL (path and query), sent back by every form so the administrator returns to it. */
  returnTo: string;
};

export const DEFAULT_TABLE_STATE: InvestorTableState = {
  q: "",
  nda: "all",
  stage: "all",
  sort: "registered",
  dir: "desc",
  page: 1,
};

function oneOf<T extends string>(values: readonly T[], value: string | null, fallback: T): T {
  return values.includes(value as T) ? (value as T) : fallback;
}

/** Reads the table state from a URL; anything unknown or out of range falls back to the default. */
export function parseInvestorTableState(searchParams: URLSearchParams): InvestorTableState {
  const q = (searchParams.get("q") ?? "").trim().slice(0, SEARCH_MAX_LENGTH);
  const nda = oneOf(NDA_FILTERS, searchParams.get("nda"), DEFAULT_TABLE_STATE.nda);
  const stage = oneOf(["all", ...PIPELINE_STAGES] as const, searchParams.get("stage"), DEFAULT_TABLE_STATE.stage);
  const sort = oneOf(SORT_COLUMNS, searchParams.get("sort"), DEFAULT_TABLE_STATE.sort);
  const dir = oneOf(["asc", "desc"] as const, searchParams.get("dir"), sort === "registered" ? "desc" : "asc");
  const pageNumber = Number(searchParams.get("page"));
  const page = Number.isSafeInteger(pageNumber) && pageNumber >= 1 ? pageNumber : 1;
  return { q, nda, stage, sort, dir, page };
}

/** The query string of a state, leaving out defaults so URLs stay short. */
export function investorTableSearch(state: InvestorTableState, changes: Partial<InvestorTableState> = {}): string {
  const next = { ...state, ...changes };
  const params = new URLSearchParams();
  if (next.q) params.set("q", next.q);
  if (next.nda !== "all") params.set("nda", next.nda);
  if (next.stage !== "all") params.set("stage", next.stage);
  if (next.sort !== DEFAULT_TABLE_STATE.sort || next.dir !== DEFAULT_TABLE_STATE.dir) {
    params.set("sort", next.sort);
    params.set("dir", next.dir);
  }
  if (next.page > 1) params.set("page", String(next.page));
  const text = params.toString();
  return text ? `?${text}` : "";
}

/** An investor's own page. */
export const investorPagePath = (id: string) => `/financing/investors/${id}`;

/** Where a form may send the administrator back to: only a path of this site under /financing. */
export function safeReturnTo(value: unknown, fallback = "/financing"): string {
  if (typeof value !== "string" || value.length > 2000) return fallback;
  if (!value.startsWith("/financing") || value.startsWith("//") || value.includes("\\")) return fallback;
  try {
    const url = new URL(value, "http://app.invalid");
    if (url.origin !== "http://app.invalid") return fallback;
    if (url.pathname !== "/financing" && !url.pathname.startsWith("/financing/")) return fallback;
    return `${url.pathname}${url.search}`;
  } catch {
    return fallback;
  }
}

/** US English long date with time, in UTC (docs/requirements.md, "Data"). */
const registrationFormat = new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeStyle: "long", timeZone: "UTC" });
export function formatRegistrationTime(iso: string) {
  return registrationFormat.format(new Date(iso));
}

/** A second factor in words: "None", or what the account has ("Authenticator app, 2 passkeys, 8 recovery codes left"). */
export function describeSecondFactor(factor: { authenticator: boolean; passkeys: number; recoveryCodesLeft?: number }) {
  const words = investorPageContent.factor;
  const parts: string[] = [];
  if (factor.authenticator) parts.push(words.authenticator);
  if (factor.passkeys > 0) parts.push(words.passkeys(factor.passkeys));
  if (parts.length === 0) return words.none;
  if (factor.recoveryCodesLeft) parts.push(words.recoveryCodes(factor.recoveryCodesLeft));
  return parts.join(", ");
}
