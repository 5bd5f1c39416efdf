import { randomUUID } from "node:crypto";
import { sql, type Selectable } from "kysely";
import type { PublicUser } from "~/lib/user-shape";
import { searchTextFor } from "~/models/investors/search-text.server";
import { now } from "~/server/clock.server";
import { getDb, type UsersTable } from "~/server/db.server";
import { json, type OnlyWriter } from "~/server/sql-dialect.server";

export type UserRow = Selectable<UsersTable>;

export type { PublicUser };

/** The columns a PublicUser is made of: lists select only these, not the hash and counters beside them. */
export const PUBLIC_USER_COLUMNS = [
  "id",
  "email",
  "full_name",
  "address",
  "is_nda_sent",
  "is_nda_signed",
  "role",
  "created_at",
] as const satisfies readonly (keyof UserRow)[];

export type PublicUserRow = Pick<UserRow, (typeof PUBLIC_USER_COLUMNS)[number]>;

export function toPublicUser(row: PublicUserRow): PublicUser {
  return {
    id: row.id,
    email: row.email,
    fullName: row.full_name,
    address: row.address,
    isNDASent: row.is_nda_sent === 1,
    isNDASigned: row.is_nda_signed === 1,
    role: { name: row.role },
    createdAt: new Date(row.created_at).toISOString(),
  };
}

/**
 * toPublicUser's shape, built by SQLite as JSON, for lists of thousands: no row object, no PublicUser
 * object and no JSON.stringify in JavaScript (databaseWritesJsonLists says where, docs/performance.md
 * says why). tests/integration/portal-admin.test.ts holds the two equal.
 */
export function publicUserJson() {
  return json.object([
    ["id", sql`id`],
    ["email", sql`email`],
    ["fullName", sql`full_name`],
    ["address", sql`address`],
    ["isNDASent", json.flag("is_nda_sent")],
    ["isNDASigned", json.flag("is_nda_signed")],
    ["role", json.object([["name", sql`role`]])],
    ["createdAt", json.isoTime("created_at")],
  ]);
}

/** How addresses are stored and compared: trimmed and lowercased. */
export function normalizeEmail(email: string) {
  return email.trim().toLowerCase();
}

export async function getUserById(id: string): Promise<PublicUser | null> {
  const row = await getUserRowById(id);
  return row ? toPublicUser(row) : null;
}

export async function getUserByEmail(email: string): Promise<PublicUser | null> {
  const row = await getUserRowByEmail(email);
  return row ? toPublicUser(row) : null;
}

/** The full row, hash included: for the account use cases only, never for a response. */
export async function getUserRowById(id: string): Promise<UserRow | undefined> {
  return getDb().selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();
}

/** The full row, hash included; addresses are stored normalized (trimmed, lowercase), so one compare finds it. */
export async function getUserRowByEmail(email: string): Promise<UserRow | undefined> {
  return getDb().selectFrom("users").selectAll().where("email", "=", normalizeEmail(email)).executeTakeFirst();
}

export function isVerified(row: Pick<UserRow, "email_verified_at">) {
  return row.email_verified_at !== null;
}

/** Who made an administrator: the inviter through an invitation, or nobody through create-admin. */
export type AdministratorOrigin = { by: string | null; via: "invitation" | "create-admin" };

export async function insertUser(
  input: {
    email: string;
    passwordHash: string;
    role: "investor" | "administrator";
    verifiedAt: number | null;
    made?: AdministratorOrigin;
  },
  db: OnlyWriter = getDb(),
): Promise<UserRow> {
  const at = now();
  return db
    .insertInto("users")
    .values({
      id: randomUUID(),
      email: input.email,
      password_hash: input.passwordHash,
      full_name: "",
      address: "",
      search_text: searchTextFor({ fullName: "", email: input.email }),
      is_nda_sent: 0,
      is_nda_signed: 0,
      role: input.role,
      email_verified_at: input.verifiedAt,
      created_by: input.made?.by ?? null,
      created_via: input.made?.via ?? null,
      created_at: at,
      updated_at: at,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}
