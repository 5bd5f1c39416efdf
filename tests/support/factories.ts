/**
 * Test factories: users, web sessions and API tokens made straight in the test database (the app's
 * own handle, so call useFreshDatabase first), so each test says only what matters to it.
 *
 * A user gets a cheap fake password hash that no password matches; give `password` for a user who
 * logs in, and it is hashed as the app hashes it (hashPassword: argon2id, slow on purpose).
 */
import { randomUUID } from "node:crypto";
import { createUserSession, sessionCookie } from "~/http/auth.server";
import { issueApiTokens } from "~/models/account/api-token.server";
import { hashPassword } from "~/models/account/password.server";
import { hashSecretToken } from "~/models/account/secret-token.server";
import { now } from "~/server/clock.server";
import { getDb, type AuthMethod } from "~/server/db.server";
import { seal } from "~/server/secret-box.server";
import { totpSecretContext } from "../../migrations/second-factor-at-rest.js";
import { newTotpSecret } from "./totp";
import { userValues, type UserFields } from "./user-values";

export type { UserFields } from "./user-values";

export type NewUser = Partial<UserFields> & {
  /** A password the user can log in with (hashed with the app's hashPassword). */
  password?: string;
};

/** A verified investor unless told otherwise, with no name or address unless given; returns the stored row. */
export async function createUser({ password, ...fields }: NewUser = {}) {
  const passwordHash = password === undefined ? fields.passwordHash : await hashPassword(password);
  return getDb()
    .insertInto("users")
    .values(userValues({ ...fields, passwordHash }))
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The user's row as the database holds it now; undefined once deleted. */
export function userRow(id: string) {
  return getDb().selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();
}

/**
 * A new web session for the user, made as a login makes it (createUserSession, which also records
 * the sign-in): by default one opened with a password and a code, which administrators' pages
 * require, and so with the security changes open for their first minutes ("sudo"), unless
 * `reauthenticated` is false. `cookie` is the Cookie header the browser sent with the login, whose
 * old session the login ends. Returns the login's redirect, its Set-Cookie header of the session,
 * and the `name=value` pair to send back.
 */
export async function createSession(
  userId: string,
  {
    cookie,
    redirectTo = "/financing",
    authMethod = "password+totp",
    reauthenticated = true,
  }: { cookie?: string; redirectTo?: string; authMethod?: AuthMethod; reauthenticated?: boolean } = {},
) {
  const request = new Request("http://localhost:3000/financing/login", { headers: cookie ? { Cookie: cookie } : {} });
  const user = await getDb()
    .selectFrom("users")
    .select(["id", "email"])
    .where("id", "=", userId)
    .executeTakeFirstOrThrow();
  const response = await createUserSession({ user, authMethod, request, redirectTo, ip: "127.0.0.1" });
  const setCookie = response.headers.getSetCookie().find((header) => header.startsWith("__session="));
  if (!setCookie) throw new Error("The login set no session cookie");
  const pair = setCookie.split(";")[0];
  if (!reauthenticated) {
    const id = (await sessionCookie().parse(pair)) as string;
    await getDb()
      .updateTable("sessions")
      .set({ reauthenticated_at: null })
      .where("id_hash", "=", hashSecretToken(id))
      .execute();
  }
  return { response, setCookie, cookie: pair };
}

/**
 * Gives the user an authenticator app, as if they had set one up: the secret stored sealed under
 * the test's DATA_KEY, as the app stores it. Returns the secret (base32) the tests' authenticator
 * (totp.ts) makes codes from.
 */
export async function enrolTotp(userId: string, secret = newTotpSecret()): Promise<string> {
  await getDb()
    .insertInto("totp_credentials")
    .values({ user_id: userId, secret: seal(secret, totpSecretContext(userId)), confirmed_at: now() })
    .execute();
  return secret;
}

/**
 * Gives the user a passkey, stored as a registration stores it (the ceremony itself needs a browser:
 * tests/e2e/second-factor.spec.ts). Returns its credential id.
 */
export async function addPasskey(
  userId: string,
  {
    id = `passkey-${randomUUID()}`,
    name = null,
    createdAt = now(),
  }: { id?: string; name?: string | null; createdAt?: number } = {},
): Promise<string> {
  await getDb()
    .insertInto("passkeys")
    .values({
      id,
      user_id: userId,
      public_key: new Uint8Array([1, 2, 3]),
      counter: 0,
      transports: "[]",
      created_at: createdAt,
      name,
    })
    .execute();
  return id;
}

/** The Cookie header value of a fresh web session for the user. */
export async function sessionCookieFor(userId: string): Promise<string> {
  return (await createSession(userId)).cookie;
}

/** A fresh API access token for the user (its refresh token is made too, and left unused). */
export async function accessTokenFor(userId: string): Promise<string> {
  return (await issueApiTokens(userId)).accessToken;
}

/** Request headers that carry a fresh web session of the user. */
export async function sessionHeaders(userId: string): Promise<{ Cookie: string }> {
  return { Cookie: await sessionCookieFor(userId) };
}

/** Request headers that carry a fresh API access token of the user. */
export async function bearerHeaders(userId: string): Promise<{ Authorization: string }> {
  return { Authorization: `Bearer ${await accessTokenFor(userId)}` };
}

/** The states an investor goes through, in order. */
export type InvestorState = "registered" | "verified" | "named" | "nda-sent" | "nda-signed";

const STATES: Record<InvestorState, Partial<NewUser>> = {
  registered: { verified: false },
  verified: {},
  named: { named: true },
  "nda-sent": { named: true, sent: true },
  "nda-signed": { named: true, signed: true },
};

type StoredUser = Awaited<ReturnType<typeof createUser>>;
/** A user and, where they have an authenticator app, its secret (base32) for the tests' authenticator (totp.ts). */
export type UserWithFactor = StoredUser & { secret: string };
export type UserWithoutFactor = StoredUser & { secret: undefined };

/**
 * An investor at `state` (verified, with no name, unless told otherwise): "registered" has not yet
 * verified the e-mail address, "named" has given a name and an address, "nda-sent" has been sent the
 * NDA, "nda-signed" has signed it. `fields` adds to the state's or overrides them; with `factor` the
 * investor has an authenticator app too.
 */
export async function createInvestor(
  state: InvestorState | undefined,
  fields: NewUser & { factor: true },
): Promise<UserWithFactor>;
export async function createInvestor(
  state?: InvestorState,
  fields?: NewUser & { factor?: false },
): Promise<UserWithoutFactor>;
export async function createInvestor(
  state?: InvestorState,
  fields?: NewUser & { factor?: boolean },
): Promise<UserWithFactor | UserWithoutFactor>;
export async function createInvestor(
  state: InvestorState = "verified",
  { factor = false, ...fields }: NewUser & { factor?: boolean } = {},
) {
  const user = await createUser({ ...STATES[state], ...fields, role: "investor" });
  return { ...user, secret: factor ? await enrolTotp(user.id) : undefined };
}

/**
 * An administrator with an authenticator app, as the app requires of every administrator once signed
 * in. With `factor: false`, one who has yet to set it up.
 */
export async function createAdministrator(fields: NewUser & { factor: false }): Promise<UserWithoutFactor>;
export async function createAdministrator(fields?: NewUser & { factor?: true }): Promise<UserWithFactor>;
export async function createAdministrator(
  fields?: NewUser & { factor?: boolean },
): Promise<UserWithFactor | UserWithoutFactor>;
export async function createAdministrator({ factor = true, ...fields }: NewUser & { factor?: boolean } = {}) {
  const user = await createUser({ ...fields, role: "administrator" });
  return { ...user, secret: factor ? await enrolTotp(user.id) : undefined };
}
