/**
 * The administrator's side of the portal: the investor table, the NDA flags
 * (signed implies sent, docs/requirements.md, "Data"), deleting an investor, and the
 * guard that every administrator page and action calls.
 */
import { sql, type SelectQueryBuilder } from "kysely";
import { z } from "zod";
import { adminContent } from "~/content/admin";
import { apiMessages } from "~/content/api-messages";
import { API_INVESTOR_PAGE_DEFAULT, API_INVESTOR_PAGE_MAX } from "~/content/constants";
import { portalEmails } from "~/content/emails";
import { investorPageContent } from "~/content/investor-page";
import {
  INVESTOR_PAGE_SIZE,
  investorTableSearch,
  parseInvestorTableState,
  type InvestorRow,
  type InvestorTableData,
  type InvestorTableRow,
  type InvestorTableState,
} from "~/lib/investor-table";
import { emailSchema } from "~/models/account-schemas.server";
import { now } from "~/server/clock.server";
import { getDb, type Database, type Role } from "~/server/db.server";
import { getEnv } from "~/server/env.server";
import { jsonArrayBytes } from "~/server/json-bytes.server";
import { log } from "~/server/log.server";
import { trySendMail } from "~/server/mail.server";
import { signText, verifiedText } from "~/server/signed-text.server";
import {
  allAfter,
  caseInsensitiveOrder,
  databaseWritesJsonLists,
  json,
  rowKey,
  type OnlyWriter,
} from "~/server/sql-dialect.server";
import { changeWithAudit, recordAuditEvent, type AuditEvent } from "./audit.server";
import { searchWords } from "./search-text.server";
import { hasAppOf, passkeyCountOf } from "./second-factor.server";
import {
  PUBLIC_USER_COLUMNS,
  publicUserJson,
  toPublicUser,
  normalizeEmail,
  type PublicUser,
  type PublicUserRow,
} from "./user.server";

export type AdminFailure = { ok: false; status: 403 | 404 | 409; message: string };
export type AdminResult<T = object> = ({ ok: true } & T) | AdminFailure;

function toInvestorRow(row: PublicUserRow): InvestorRow {
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
  signed: [["is_nda_signed", 1]],
};

/**
 * The investor indexes hold investors only (`where role = 'investor'`, migrations/005). For a role bound as
 * a parameter SQLite can use them only by planning the statement again each time it runs; written into the
 * SQL, the role lets the kept statement be planned once.
 */
const investorRole = sql.lit<Role>("investor");

/**
 * The investors a search finds: each word of the folded query somewhere in their folded name or address,
 * in any order. A folded word is letters and digits only, so it holds no `%`, `_` or `\` for LIKE to read
 * as more than itself. Every investor index carries search_text (migrations/012), so the words are matched
 * in the index a page or a total is read from.
 */
function selection(state: Pick<InvestorTableState, "q" | "nda">) {
  let query = getDb().selectFrom("users").where("role", "=", investorRole);
  for (const word of searchWords(state.q)) query = query.where("search_text", "like", `%${word}%`);
  for (const [column, value] of NDA_FLAG_CONDITIONS[state.nda]) query = query.where(column, "=", value);
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

/** One page of the selection, sorted, each row with its verification and second factor. */
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
  // Each row with its verification and second factor, read in the same statement: one round trip a page.
  const rows = await getDb()
    .selectFrom(positions.as("page"))
    .innerJoin("users", (join) => join.on(sql<boolean>`${rowKey("users")} = page.position`))
    .select((eb) => [
      ...PUBLIC_USER_COLUMNS,
      "address_lines",
      "email_verified_at",
      hasAppOf(eb).as("authenticator"),
      passkeyCountOf(eb).as("passkeys"),
    ])
    .orderBy(order)
    .execute();
  const investors = rows.map((row): InvestorTableRow => ({
    ...toInvestorRow(row),
    addressLines: row.address_lines,
    emailVerified: row.email_verified_at != null,
    secondFactor: { authenticator: Boolean(row.authenticator), passkeys: Number(row.passkeys ?? 0) },
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

async function countSearch(state: Pick<InvestorTableState, "q" | "nda">) {
  const { n: version } = await getDb().selectFrom("users_version").select("n").executeTakeFirstOrThrow();
  // By the folded words, so "Ángel" and "angel," share a total.
  const key = JSON.stringify([version, state.nda, searchWords(state.q)]);
  const kept = searchCounts.get(key);
  if (kept !== undefined) return kept;
  const row = await selection(state)
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .executeTakeFirstOrThrow();
  const count = Number(row.count);
  if (searchCounts.size >= SEARCH_COUNTS_KEPT) searchCounts.delete(searchCounts.keys().next().value!);
  searchCounts.set(key, count);
  return count;
}

async function countInvestors(state: Pick<InvestorTableState, "q" | "nda">) {
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

/**
 * Investors for the API, oldest first, as get_investors' body `{"users":[…]}` in UTF-8 bytes; without `limit`
 * every one of them.
 */
export async function investorsJsonBytes({ limit, offset = 0 }: { limit?: number; offset?: number } = {}): Promise<
  Buffer<ArrayBuffer>
> {
  let page = oldestFirst(getDb().selectFrom("users").select(PUBLIC_USER_COLUMNS));
  if (limit !== undefined) page = page.limit(limit).offset(offset);
  else if (offset > 0) page = allAfter(page, offset);
  if (!databaseWritesJsonLists()) return jsonArrayBytes((await page.execute()).map(toPublicUser), USERS_FIELD);
  const { users } = await getDb()
    .selectFrom(page.as("page"))
    .select(json.array(publicUserJson(), sql`created_at, id`).as("users"))
    .executeTakeFirstOrThrow();
  // Three buffers, not one string: the database's list is megabytes long, and joining it would copy it twice.
  return Buffer.concat([Buffer.from(USERS_FIELD.before), Buffer.from(users), Buffer.from(USERS_FIELD.after)]);
}

/** What surrounds get_investors' list in its body. */
const USERS_FIELD = { before: '{"users":', after: "}" };

/**
 * Where a walk of the investor list stands: the last investor answered. The list is ordered by
 * registration time and id, which never change, so a walk resumed after it skips no one and repeats no
 * one, whoever registers or is deleted meanwhile (an offset would shift).
 */
export type InvestorCursor = { createdAt: number; id: string };

/** Up to `limit` investors after `after` (from the first without it), and the cursor of the next page if any. */
async function investorPage({ limit, after }: { limit: number; after?: InvestorCursor }) {
  let page = oldestFirst(getDb().selectFrom("users").select(PUBLIC_USER_COLUMNS));
  if (after) page = page.where((eb) => eb(eb.refTuple("created_at", "id"), ">", eb.tuple(after.createdAt, after.id)));
  // One more than asked: its presence is what says that another page follows.
  const rows = await page.limit(limit + 1).execute();
  const answered = rows.slice(0, limit);
  const last = answered[answered.length - 1];
  return {
    users: answered.map(toPublicUser),
    next: rows.length > limit ? { createdAt: last.created_at, id: last.id } : null,
  };
}

function oldestFirst<Query extends SelectQueryBuilder<Database, "users", object>>(query: Query): Query {
  return query.where("role", "=", investorRole).orderBy("created_at").orderBy("id") as Query;
}

type Actor = Pick<PublicUser, "id" | "email">;
type FlagInput = { actor: Actor; email: string; state: boolean; ip?: string | null };

async function investorByEmail(email: string) {
  return getDb()
    .selectFrom("users")
    .selectAll()
    .where("email", "=", normalizeEmail(email))
    .where("role", "=", "investor")
    .executeTakeFirst();
}

const ndaRefusals = investorPageContent.errors;

const notFound: AdminFailure = { ok: false, status: 404, message: adminContent.errors.notFound };

/** Sets "NDA sent"; setting it to No also clears "NDA signed". */
export async function setNdaSent({ actor, email, state, ip }: FlagInput): Promise<AdminResult<{ user: PublicUser }>> {
  const investor = await investorByEmail(email);
  if (!investor) return notFound;
  const flags = state ? ({ is_nda_sent: 1 } as const) : ({ is_nda_sent: 0, is_nda_signed: 0 } as const);
  const row = await changeWithAudit(async (db, record) => {
    const row = await writeNdaFlags(db, investor.id, flags, { onlyIfReady: state });
    if (row) record(ndaChange({ action: "nda.sent.changed", actor, row, ip, state }));
    return row;
  });
  if (!row) return whyNotMarked(investor.id);
  return { ok: true, user: toPublicUser(row) };
}

/** Sets "NDA signed"; setting it to Yes also sets "NDA sent", and tells the investor the materials are open. */
export async function setNdaSigned({ actor, email, state, ip }: FlagInput): Promise<AdminResult<{ user: PublicUser }>> {
  const investor = await investorByEmail(email);
  if (!investor) return notFound;
  // "Signed" is set only where it was not, in one statement: of two requests at once (two administrators,
  // or a retry on another instance) exactly one finds it newly signed, and only that one mails.
  const flags = state ? ({ is_nda_sent: 1, is_nda_signed: 1 } as const) : ({ is_nda_signed: 0 } as const);
  const { row, signedNow } = await changeWithAudit(async (db, record) => {
    const signedNow = state
      ? await writeNdaFlags(db, investor.id, flags, { unlessSigned: true, onlyIfReady: true })
      : undefined;
    const row = signedNow ?? (await writeNdaFlags(db, investor.id, flags, { onlyIfReady: state }));
    if (row) record(ndaChange({ action: "nda.signed.changed", actor, row, ip, state }));
    return { row, signedNow };
  });
  if (!row) return whyNotMarked(investor.id);
  if (signedNow) {
    // After the change is stored: the mail cannot be taken back, so it goes only for a change that is kept.
    const mailed = await mailMaterialsOpen(signedNow);
    const event: AuditEvent = {
      actorId: actor.id,
      actorEmail: actor.email,
      action: "investor.materials_mailed",
      targetId: signedNow.id,
      targetEmail: signedNow.email,
      details: { mailed },
      ip,
    };
    // The signature stands and the mail has gone (or not): a 503 now would say otherwise, and a retry would
    // not mail again. The outcome is kept in the log instead.
    await recordAuditEvent(event).catch((error: unknown) =>
      log("error", "audit.append_failed", { auditAction: event.action, targetId: signedNow.id, mailed, error }),
    );
  }
  return { ok: true, user: toPublicUser(row) };
}

/**
 * The investor's row after the change; undefined if the investor is gone (or, `unlessSigned`, signed
 * already; or, `onlyIfReady`, not ready for an NDA). Readiness is part of the write, so an investor is never
 * marked on the strength of a state read before a change (docs/decisions/0017).
 */
function writeNdaFlags(
  db: OnlyWriter,
  id: string,
  flags: { is_nda_sent?: 0 | 1; is_nda_signed?: 0 | 1 },
  { unlessSigned = false, onlyIfReady = false } = {},
) {
  let update = db
    .updateTable("users")
    .set({ ...flags, updated_at: now() })
    .where("id", "=", id)
    .where("role", "=", "investor");
  if (unlessSigned) update = update.where("is_nda_signed", "=", 0);
  if (onlyIfReady) update = update.where(readyForNda());
  return update.returningAll().executeTakeFirst();
}

/** An NDA is marked sent or signed only for a verified address with a name and address given. */
function readyForNda() {
  return sql<boolean>`(email_verified_at is not null and trim(full_name) <> '' and trim(address) <> '')`;
}

/** Why a flag was not set: the investor is gone, or (read after the write) not ready for an NDA. */
async function whyNotMarked(id: string): Promise<AdminFailure> {
  const row = await getDb()
    .selectFrom("users")
    .select(["email_verified_at", "full_name", "address"])
    .where("id", "=", id)
    .where("role", "=", "investor")
    .executeTakeFirst();
  if (!row) return notFound;
  if (row.email_verified_at === null) return { ok: false, status: 409, message: ndaRefusals.ndaNeedsVerified };
  if (!row.full_name.trim() || !row.address.trim()) {
    return { ok: false, status: 409, message: ndaRefusals.ndaNeedsDetails };
  }
  // Ready now, after all: made ready between the write and this read. Asking again will do.
  return { ok: false, status: 409, message: ndaRefusals.ndaRetry };
}

/** The audit row of a change of a flag, with both flags as they now stand. */
function ndaChange({
  action,
  actor,
  row,
  ip,
  state,
}: {
  action: "nda.sent.changed" | "nda.signed.changed";
  actor: Actor;
  row: PublicUserRow;
  ip?: string | null;
  state: boolean;
}): AuditEvent {
  return {
    actorId: actor.id,
    actorEmail: actor.email,
    action,
    targetId: row.id,
    targetEmail: row.email,
    details: { state, isNDASent: row.is_nda_sent === 1, isNDASigned: row.is_nda_signed === 1 },
    ip,
  };
}

function mailMaterialsOpen(row: PublicUserRow) {
  const link = new URL("/financing/materials", getEnv().appUrl).href;
  return trySendMail({ to: row.email, ...portalEmails.materialsOpen({ name: row.full_name, link }) });
}

/**
 * Deletes an investor; their sessions, API tokens and pending one-time links
 * go with them (ON DELETE CASCADE). Administrators are refused.
 */
export async function deleteInvestor({
  actor,
  id,
  ip,
}: {
  actor: Actor;
  id: string;
  ip?: string | null;
}): Promise<AdminResult<{ email: string }>> {
  const target = await getDb().selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();
  if (!target) return notFound;
  if (target.role !== "investor") return { ok: false, status: 403, message: adminContent.errors.administrator };
  const deleted = await changeWithAudit(async (db, record) => {
    // Deleted only if still an investor: promoted meanwhile, or deleted by another administrator, it is not.
    const { numDeletedRows } = await db
      .deleteFrom("users")
      .where("id", "=", target.id)
      .where("role", "=", "investor")
      .executeTakeFirst();
    if (numDeletedRows === 0n) return false;
    record({
      actorId: actor.id,
      actorEmail: actor.email,
      action: "investor.deleted",
      targetId: target.id,
      targetEmail: target.email,
      ip,
    });
    return true;
  });
  if (!deleted) return notFound;
  return { ok: true, email: target.email };
}

/** One investor by id, for the confirmation page. */
export async function getInvestorById(id: string): Promise<InvestorRow | null> {
  const row = await getDb()
    .selectFrom("users")
    .select(PUBLIC_USER_COLUMNS)
    .where("id", "=", id)
    .where("role", "=", "investor")
    .executeTakeFirst();
  return row ? toInvestorRow(row) : null;
}

/** What a spreadsheet skips before the first visible character: spaces, zero-width and direction marks. */
const INVISIBLE_LEAD = /^[\s\u200B-\u200D\u2060\uFEFF\u202A-\u202E\u2066-\u2069]*/u;

/**
 * A CSV cell: quoted, and neutralised with a leading apostrophe when its first visible character
 * is = + - @ (or it starts with a tab or CR), so that no spreadsheet runs it as a formula.
 */
export function csvCell(value: string) {
  const firstVisible = value.replace(INVISIBLE_LEAD, "");
  const safe = /^[\t\r]/.test(value) || /^[=+\-@]/.test(firstVisible) ? `'${value}` : value;
  return `"${safe.replace(/"/g, '""')}"`;
}

/** Excel reads a CSV as UTF-8 only when it starts with a byte order mark; without it accented names turn to mojibake. */
export const CSV_BYTE_ORDER_MARK = "\uFEFF";

/** The export: a byte order mark, a header row, then one row an investor, registration times in ISO 8601 (UTC). */
export function investorsCsv(rows: InvestorRow[]) {
  const { yes, no } = adminContent.table;
  const lines = [adminContent.csvHeader.map(csvCell).join(",")];
  for (const row of rows) {
    lines.push(
      [row.fullName, row.email, row.address, row.createdAt, row.isNDASent ? yes : no, row.isNDASigned ? yes : no]
        .map(csvCell)
        .join(","),
    );
  }
  return `${CSV_BYTE_ORDER_MARK}${lines.join("\r\n")}\r\n`;
}

/** The payloads of the administrator API calls (docs/requirements.md, "The JSON API"). */
export const ndaFlagSchema = z.object({
  email: emailSchema,
  state: z.boolean({ error: apiMessages.stateNotBoolean }),
});

/**
 * A query's whole number from `min` to `max`: an integer, as the document says, written in decimal
 * digits (no sign, point or exponent), which are read as the number; any other text is refused.
 */
function wholeNumberParameter(min: number, max: number, message: string) {
  return z.preprocess(
    (text) => (typeof text === "string" && /^\d{1,16}$/.test(text) ? Number(text) : text),
    z.number({ error: message }).int({ error: message }).min(min, { error: message }).max(max, { error: message }),
  );
}

const CURSOR_PURPOSE = "get_investors cursor";

/**
 * The opaque text a client gets as `nextCursor` and sends back as `cursor`: where the walk stands,
 * signed, so that a cursor the server did not issue (made up, or altered in any way) is refused.
 */
function encodeInvestorCursor({ createdAt, id }: InvestorCursor): string {
  return signText(CURSOR_PURPOSE, Buffer.from(`${createdAt}.${id}`).toString("base64url"));
}

const investorCursorSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,200}\.[A-Za-z0-9_-]{22}$/, { error: apiMessages.cursorInvalid })
  .transform((signed, context): InvestorCursor => {
    const text = verifiedText(CURSOR_PURPOSE, signed);
    const match =
      text === null ? null : /^(\d{1,15})\.([A-Za-z0-9-]{1,64})$/.exec(Buffer.from(text, "base64url").toString());
    if (match) return { createdAt: Number(match[1]), id: match[2] };
    context.addIssue({ code: "custom", message: apiMessages.cursorInvalid });
    return z.NEVER;
  });

/**
 * get_investors' query: nothing for every investor (as the API always answered), `limit` and `cursor` to
 * walk them a page at a time, or the older `limit` and `offset`.
 */
export const investorListQuerySchema = z
  .object({
    limit: wholeNumberParameter(1, API_INVESTOR_PAGE_MAX, apiMessages.limitInvalid)
      .optional()
      .meta({ description: `How many investors a page holds, from 1 to ${API_INVESTOR_PAGE_MAX}.` }),
    cursor: investorCursorSchema
      .optional()
      .meta({ description: "The `nextCursor` of the page before: the page after it." }),
    offset: wholeNumberParameter(0, Number.MAX_SAFE_INTEGER, apiMessages.offsetInvalid)
      .optional()
      .meta({ description: "Deprecated: how many investors to skip. Use `cursor`.", deprecated: true }),
  })
  .refine((query) => query.cursor === undefined || query.offset === undefined, {
    path: ["cursor"],
    error: apiMessages.cursorWithOffset,
  });

export type InvestorListQuery = z.output<typeof investorListQuerySchema>;

/**
 * get_investors' JSON body for its query, in UTF-8 bytes: `{ users }`, every investor or an offset page; or a
 * page by cursor, with `nextCursor` while more remain. The bytes go out as they are.
 */
export async function investorListBody({ limit, cursor, offset }: InvestorListQuery): Promise<Buffer<ArrayBuffer>> {
  if (cursor === undefined && (limit === undefined || offset !== undefined)) {
    return investorsJsonBytes({ limit, offset });
  }
  const page = await investorPage({ limit: limit ?? API_INVESTOR_PAGE_DEFAULT, after: cursor });
  const next = page.next ? `,"nextCursor":${JSON.stringify(encodeInvestorCursor(page.next))}` : "";
  return jsonArrayBytes(page.users, { before: USERS_FIELD.before, after: `${next}${USERS_FIELD.after}` });
}

export const deleteInvestorSchema = z.object({
  id: z
    .string({ error: apiMessages.idNotText })
    .regex(/\S/, { error: apiMessages.idEmpty })
    .trim()
    .min(1, { error: apiMessages.idEmpty })
    .max(64, { error: apiMessages.idTooLong }),
});
