/**
 * What a test user's row in `users` holds, built in one place for every way a test makes one:
 * through the app's own database handle (factories.ts) or straight into a running server's
 * SQLite file (database-file.ts). No app code runs here, so e2e specs may import it too.
 */
import { randomUUID } from "node:crypto";
import type { UsersTable } from "~/server/db.server";
import { searchTextFor } from "../../migrations/search-text.js";

export type UserFields = {
  email: string;
  fullName: string;
  address: string;
  /** The address's lines joined by line feeds (users.address_lines); null unless given, as before migration 019. */
  addressLines: string | null;
  /** NDA sent; implied by `signed`. */
  sent: boolean;
  signed: boolean;
  role: UsersTable["role"];
  /** False leaves the e-mail address unverified (email_verified_at null). */
  verified: boolean;
  /** Also the verification time; by default each user a minute after the last. */
  createdAt: number;
  /**
   * A name and an address ("Person 7", "7 Main Street") where `fullName` and `address` are not
   * given, as the administrator's table shows its investors; without it both are empty, as after sign-up.
   */
  named: boolean;
  /** The stored hash as it is; by default a fake one that no password matches. */
  passwordHash: string;
};

export type UserValues = UsersTable;

/** A fake password hash: cheap, and no password ever matches it. */
export const FAKE_PASSWORD_HASH = "not-a-real-hash";

let made = 0;

/** A verified investor unless told otherwise, with no name or address unless given (or `named`). */
export function userValues(fields: Partial<UserFields> = {}): UserValues {
  made += 1;
  const at = fields.createdAt ?? Date.UTC(2025, 0, 1) + made * 60_000;
  const email = fields.email ?? `user.${made}.${randomUUID().slice(0, 8)}@example.com`;
  const fullName = fields.fullName ?? (fields.named ? `Person ${made}` : "");
  return {
    id: randomUUID(),
    email,
    password_hash: fields.passwordHash ?? FAKE_PASSWORD_HASH,
    full_name: fullName,
    search_text: searchTextFor({ fullName, email }),
    address: fields.address ?? (fields.named ? `${made} Main Street` : ""),
    address_lines: fields.addressLines ?? null,
    is_nda_sent: fields.sent || fields.signed ? 1 : 0,
    is_nda_signed: fields.signed ? 1 : 0,
    role: fields.role ?? "investor",
    email_verified_at: fields.verified === false ? null : at,
    last_login_at: null,
    created_by: null,
    created_via: null,
    created_at: at,
    updated_at: at,
  };
}
