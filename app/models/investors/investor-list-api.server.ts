/**
 * get_investors: its query (a limit with a signed cursor, or the older offset) and its JSON body, every
 * investor oldest first or one page of them, written as UTF-8 bytes.
 */
import { sql, type SelectQueryBuilder } from "kysely";
import { z } from "zod";
import { apiMessages } from "~/content/api-messages";
import { API_INVESTOR_PAGE_DEFAULT, API_INVESTOR_PAGE_MAX } from "~/content/constants";
import { PUBLIC_USER_COLUMNS, publicUserJson, toPublicUser } from "~/models/account/user.server";
import { getDb, type Database } from "~/server/db.server";
import { jsonArrayBytes } from "~/server/json-bytes.server";
import { signText, verifiedText } from "~/server/signed-text.server";
import { allAfter, databaseWritesJsonLists, json } from "~/server/sql-dialect.server";
import { investorRole } from "./investor-table.server";

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
