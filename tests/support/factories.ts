/**
 * Test factories: users, sessions and API tokens made straight in the test database, so each test
 * says only what matters to it. A user gets a fake password hash (these users never log in with a
 * password; tests that do go through the account use cases).
 */
import { randomUUID } from "node:crypto";
import { createUserSession } from "~/http/auth.server";
import { issueApiTokens } from "~/models/api-token.server";
import { getDb } from "~/server/db.server";
import { cookiesFrom } from "./api-routes";

let made = 0;

export type UserFields = {
  email: string;
  fullName: string;
  address: string;
  sent: boolean;
  signed: boolean;
  role: "investor" | "administrator";
  /** Also the verification time; by default each user a minute after the last. */
  createdAt: number;
};

/** A verified user (an investor unless told otherwise), with no name or address unless given. */
export async function createUser(fields: Partial<UserFields> = {}) {
  made += 1;
  const at = fields.createdAt ?? Date.UTC(2025, 0, 1) + made * 60_000;
  return getDb()
    .insertInto("users")
    .values({
      id: randomUUID(),
      email: fields.email ?? `user.${made}.${randomUUID().slice(0, 8)}@example.com`,
      password_hash: "not-a-real-hash",
      full_name: fields.fullName ?? "",
      address: fields.address ?? "",
      is_nda_sent: fields.sent || fields.signed ? 1 : 0,
      is_nda_signed: fields.signed ? 1 : 0,
      role: fields.role ?? "investor",
      email_verified_at: at,
      created_at: at,
      updated_at: at,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The user's row as the database holds it now; undefined once deleted. */
export function userRow(id: string) {
  return getDb().selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();
}

/** The Cookie header value of a fresh web session for the user. */
export async function sessionCookieFor(userId: string): Promise<string> {
  const response = await createUserSession({ userId, request: new Request("http://localhost:3000/"), redirectTo: "/" });
  return cookiesFrom(response);
}

/** A fresh API access token for the user. */
export async function accessTokenFor(userId: string): Promise<string> {
  return (await issueApiTokens(userId)).accessToken;
}
