/**
 * Whether an investor may still correct their own name and address. The NDA is prepared with them, so
 * they are fixed once it is sent, except where "sent" is the portal's offer of a copy not yet signed: a
 * correction then renders a new copy, superseding the old one (nda-copies.server.ts), and the details stay
 * open until the signature. An NDA sent by other means (the manual flag) fixes them as before.
 */
import { sql, type ExpressionBuilder } from "kysely";
import { getDb, type Database } from "~/server/db.server";

export function detailsOpen(eb: ExpressionBuilder<Database, "users">) {
  return eb.or([
    eb("users.is_nda_sent", "=", 0),
    eb.and([
      eb("users.is_nda_signed", "=", 0),
      eb.exists(
        eb
          .selectFrom("nda_copies")
          .select(sql.lit(1).as("one"))
          .whereRef("nda_copies.user_id", "=", "users.id")
          .where("nda_copies.superseded_at", "is", null),
      ),
      eb.not(
        eb.exists(
          eb
            .selectFrom("nda_signatures")
            .select(sql.lit(1).as("one"))
            .whereRef("nda_signatures.user_id", "=", "users.id"),
        ),
      ),
    ]),
  ]);
}

export async function detailsCorrectable(userId: string): Promise<boolean> {
  const row = await getDb()
    .selectFrom("users")
    .select("id")
    .where("id", "=", userId)
    .where(detailsOpen)
    .executeTakeFirst();
  return !!row;
}
