/**
 * The administrator's investor table: the rows of a page (search, NDA filter, sort, paging read from the
 * nearer end of the index), the totals kept by triggers or for a search, and every row of a selection for
 * the CSV export.
 */
import { sql, type ExpressionBuilder } from "kysely";
import {
  INVESTOR_PAGE_SIZE,
  investorTableSearch,
  parseInvestorTableState,
  type InvestorRow,
  type InvestorTableData,
  type InvestorTableRow,
  type InvestorTableState,
} from "~/lib/investor-table";
import { PUBLIC_USER_COLUMNS, toPublicUser, type PublicUserRow } from "~/models/account/user.server";
import { stageCondition } from "~/models/pipeline/pipeline-stages.server";
import { latestVerificationExpiryOf, verificationStandingOf } from "~/models/qualification/qualification.server";
import { hasAppOf, passkeyCountOf } from "~/models/second-factor/second-factor.server";
import { now } from "~/server/clock.server";
import { getDb, type Database, type Role } from "~/server/db.server";
import { caseInsensitiveOrder, rowKey } from "~/server/sql-dialect.server";
import { searchWords } from "./search-text.server";

export function toInvestorRow(row: PublicUserRow): InvestorRow {
  const { role: _role, ...user } = toPublicUser(row);
  return user;
}

/** The NDA filter's states, as flag values: the same columns in `users` and `investor_counts`. */
const NDA_FLAG_CONDITIONS: Record<
  InvestorTableState["nda"],
  [column: "is_nda_sent" | "is_nda_signed", value: 0 | 1][]
> = {
  all: [],
  "not-sent": [["is_nda_sent", 0]],
  sent: [
    ["is_nda_sent", 1],
    ["is_nda_signed", 0],
  ],
  // Signed in the portal and not completed yet: NDA sent and not signed, narrowed in `selection`.
  countersign: [
    ["is_nda_sent", 1],
    ["is_nda_signed", 0],
  ],
  signed: [["is_nda_signed", 1]],
};

/**
 * The investor indexes hold investors only (`where role = 'investor'`, migrations/005). For a role bound as
 * a parameter SQLite can use them only by planning the statement again each time it runs; written into the
 * SQL, the role lets the kept statement be planned once.
 */
export const investorRole = sql.lit<Role>("investor");

/**
 * The investors a search finds: each word of the folded query somewhere in their folded name or address,
 * in any order. A folded word is letters and digits only, so it holds no `%`, `_` or `\` for LIKE to read
 * as more than itself. Every investor index carries search_text (migrations/012), so the words are matched
 * in the index a page or a total is read from.
 */
/** The investor's portal signature waits for the firm's (the NDA page's list, as a filter). */
function waitingForCountersignature(eb: ExpressionBuilder<Database, "users">) {
  return eb.exists(
    eb
      .selectFrom("nda_signatures")
      .select(sql.lit(1).as("one"))
      .whereRef("nda_signatures.user_id", "=", "users.id")
      .where("nda_signatures.kind", "=", "portal")
      .where("nda_signatures.completed_at", "is", null),
  );
}

function selection(state: Pick<InvestorTableState, "q" | "nda" | "stage">) {
  let query = getDb().selectFrom("users").where("role", "=", investorRole);
  if (state.stage !== "all") query = query.where(stageCondition(state.stage, now()));
  for (const word of searchWords(state.q)) query = query.where("search_text", "like", `%${word}%`);
  for (const [column, value] of NDA_FLAG_CONDITIONS[state.nda]) query = query.where(column, "=", value);
  if (state.nda === "countersign") query = query.where(waitingForCountersignature);
  return query;
}

const SORT_EXPRESSIONS = {
  name: () => caseInsensitiveOrder("full_name"),
  email: () => sql`email`,
  registered: () => sql`created_at`,
} as const;

/** Which rows; `total` (the selection's size) lets a page past the middle be read from the other end. */
type Page = { limit: number; offset: number; total?: number };

/** The selection's order; `reversed` reads it from the other end. */
function orderOf(state: InvestorTableState, reversed = false) {
  const ascending = (state.dir === "asc") !== reversed;
  const direction = ascending ? sql`asc` : sql`desc`;
  // The tie-break runs the same way as the sort, so one index serves both directions.
  return sql`${SORT_EXPRESSIONS[state.sort]()} ${direction}, id ${direction}`;
}

/** Every investor of the selection, sorted (the CSV export). */
async function selectAllInvestors(state: InvestorTableState): Promise<InvestorRow[]> {
  return (await selection(state).select(PUBLIC_USER_COLUMNS).orderBy(orderOf(state)).execute()).map(toInvestorRow);
}

/**
 * The rows a page asks the index for. OFFSET walks the index from one end, so a page past the middle of a
 * selection whose size is known is read from the other end (`fromEnd`), and turned round afterwards.
 */
function indexWindowOf(page: Page): { limit: number; offset: number; fromEnd: boolean } {
  if (page.total === undefined || page.offset <= page.total / 2) {
    return { limit: page.limit, offset: page.offset, fromEnd: false };
  }
  const rowsLeft = page.total - page.offset;
  return { limit: Math.min(page.limit, rowsLeft), offset: Math.max(0, rowsLeft - page.limit), fromEnd: true };
}

/** One page of the selection, sorted, each row with its e-mail verification, second factor and accreditation. */
async function selectInvestors(state: InvestorTableState, page: Page): Promise<InvestorTableRow[]> {
  const window = indexWindowOf(page);
  const order = orderOf(state, window.fromEnd);
  // The rows OFFSET passes over are counted in the index alone, then only the page's own rows are read from
  // the table: skipping rows whole cost twice as much (a deep page of 100,000 investors: 2.7 ms, now 1.4 ms).
  const positions = selection(state)
    .select(rowKey("users").as("position"))
    .orderBy(order)
    .limit(window.limit)
    .offset(window.offset);
  // Each row with its e-mail verification, second factor and latest accreditation verification, read in the
  // same statement: one round trip a page, each subquery one index seek a row of the page.
  const rows = await getDb()
    .selectFrom(positions.as("page"))
    .innerJoin("users", (join) => join.on(sql<boolean>`${rowKey("users")} = page.position`))
    .select((eb) => [
      ...PUBLIC_USER_COLUMNS,
      "address_lines",
      "email_verified_at",
      hasAppOf(eb).as("authenticator"),
      passkeyCountOf(eb).as("passkeys"),
      latestVerificationExpiryOf(eb).as("verification_expires_at"),
    ])
    .orderBy(order)
    .execute();
  const at = now();
  const investors = rows.map((row): InvestorTableRow => ({
    ...toInvestorRow(row),
    addressLines: row.address_lines,
    emailVerified: row.email_verified_at != null,
    secondFactor: { authenticator: Boolean(row.authenticator), passkeys: Number(row.passkeys ?? 0) },
    verification: verificationStandingOf(row.verification_expires_at, at),
  }));
  return window.fromEnd ? investors.reverse() : investors;
}

/**
 * A search's total is a scan of every investor, and paging through its results
 * asks for the same total again; it is kept until `users_version` moves, which
 * triggers do on every change to users a search can see, whoever writes
 * (migrations/004). An entry of an older version is never read again.
 */
const searchCounts = new Map<string, number>();
const SEARCH_COUNTS_KEPT = 100;

async function countSearch(state: Pick<InvestorTableState, "q" | "nda" | "stage">) {
  const { n: version } = await getDb().selectFrom("users_version").select("n").executeTakeFirstOrThrow();
  // By the folded words, so "Ángel" and "angel," share a total.
  const key = JSON.stringify([version, state.nda, searchWords(state.q)]);
  const kept = searchCounts.get(key);
  if (kept !== undefined) return kept;
  const count = await countSelection(state);
  if (searchCounts.size >= SEARCH_COUNTS_KEPT) searchCounts.delete(searchCounts.keys().next().value!);
  searchCounts.set(key, count);
  return count;
}

async function countSelection(state: Pick<InvestorTableState, "q" | "nda" | "stage">) {
  const row = await selection(state)
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

async function countInvestors(state: Pick<InvestorTableState, "q" | "nda" | "stage">) {
  // A stage of the pipeline reads beyond users (readers, verifications, indications), and a signature
  // changes no row of users, so neither users_version nor the kept counts would see it: counted afresh.
  if (state.stage !== "all" || state.nda === "countersign") return countSelection(state);
  if (searchWords(state.q).length > 0) return countSearch(state);
  // Without a search, the counts per NDA state that triggers keep (migrations/003) answer at once.
  let query = getDb()
    .selectFrom("investor_counts")
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>("n"), sql<number>`0`).as("count"));
  for (const [column, value] of NDA_FLAG_CONDITIONS[state.nda]) query = query.where(column, "=", value);
  return Number((await query.executeTakeFirstOrThrow()).count);
}

/** The administrator's table for a URL: search, NDA filter, sort and page come from its query. */
export async function loadInvestorTable(url: URL): Promise<InvestorTableData> {
  const requested = parseInvestorTableState(url.searchParams);
  if (requested.page === 1) {
    // The first page, the one asked for most, is there whatever the total, so its rows are read beside the
    // count (on PostgreSQL, one round trip to the database less).
    const [total, rows] = await Promise.all([
      countInvestors(requested),
      selectInvestors(requested, { limit: INVESTOR_PAGE_SIZE, offset: 0 }),
    ]);
    return investorTable(requested, rows, total);
  }
  // Any other page needs the total first: whether it exists, and from which end to read it.
  const total = await countInvestors(requested);
  const state = { ...requested, page: Math.min(requested.page, pageCountOf(total)) };
  const offset = (state.page - 1) * INVESTOR_PAGE_SIZE;
  return investorTable(state, await selectInvestors(state, { limit: INVESTOR_PAGE_SIZE, offset, total }), total);
}

const pageCountOf = (total: number) => Math.max(1, Math.ceil(total / INVESTOR_PAGE_SIZE));

function investorTable(state: InvestorTableState, rows: InvestorTableRow[], total: number): InvestorTableData {
  return { state, rows, total, pageCount: pageCountOf(total), returnTo: `/financing${investorTableSearch(state)}` };
}

/** The whole selection of a table URL (every page), for the CSV export. */
export async function investorsForExport(url: URL): Promise<InvestorRow[]> {
  return selectAllInvestors(parseInvestorTableState(url.searchParams));
}
