/**
 * Passkeys (WebAuthn): registered from the security settings as a second factor, and able to sign
 * in on their own, being a possession and a PIN or biometric at once. Each ceremony's challenge is
 * a login challenge in the database, spent by its first answer, so a replayed answer is refused.
 */
import type {
  AuthenticationResponseJSON,
  AuthenticatorTransport,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { PASSKEY_NAME_MAX_LENGTH } from "~/content/account-sessions";
import { secondFactorChanges } from "~/content/emails";
import { firm } from "~/content/firm";
import { passkeyMessages } from "~/content/second-factor";
import { deviceName } from "~/models/account/client-device.server";
import {
  consumeLoginChallenge,
  createLoginChallenge,
  type ChallengeKind,
} from "~/models/account/login-challenge.server";
import { getUserById, type PublicUser } from "~/models/account/user.server";
import { recordAuditEvent, recordOwnAccountEvent } from "~/models/audit/audit.server";
import type { Failure } from "~/models/failure";
import { now } from "~/server/clock.server";
import { getDb } from "~/server/db.server";
import { getEnv } from "~/server/env.server";
import { log } from "~/server/log.server";
import { afterFactorChange } from "./factor-change.server";
import { issueRecoveryCodesIfNone } from "./recovery-code.server";
import { forgetRecoveryCodesWithoutFactor } from "./second-factor.server";

type Account = Pick<PublicUser, "id" | "email">;
type FromClient = { ip: string };
/** A change made in a session: the account, and the session that stays open after it. */
type InSession = { user: Account; sessionIdHash: string } & FromClient;

export type PasskeySummary = {
  id: string;
  /** The owner's name for it, or its default ("Chrome on macOS"); null for one made before names were kept. */
  name: string | null;
  createdAt: string;
  lastUsedAt: string | null;
};

/**
 * The WebAuthn library, loaded at the first ceremony: with its certificate parsers it holds some 5 MB of
 * heap that a server whose users never touch a passkey need not carry (docs/performance.md, "The passkey library on first use").
 */
function webauthn() {
  return import("@simplewebauthn/server");
}

/** The relying party is the site itself, as APP_URL names it. */
function relyingParty() {
  const { appUrl } = getEnv();
  return { rpID: appUrl.hostname, origin: appUrl.origin };
}

export async function listPasskeys(userId: string): Promise<PasskeySummary[]> {
  const rows = await getDb()
    .selectFrom("passkeys")
    .select(["id", "name", "created_at", "last_used_at"])
    .where("user_id", "=", userId)
    .orderBy("created_at")
    .execute();
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    createdAt: new Date(row.created_at).toISOString(),
    lastUsedAt: row.last_used_at === null ? null : new Date(row.last_used_at).toISOString(),
  }));
}

/** The stored transports (a JSON list), as WebAuthn takes them. */
function transportsIn(row: { transports: string }) {
  return JSON.parse(row.transports) as AuthenticatorTransport[];
}

async function transportsOf(userId: string) {
  const rows = await getDb()
    .selectFrom("passkeys")
    .select(["id", "transports"])
    .where("user_id", "=", userId)
    .execute();
  return rows.map((row) => ({ id: row.id, transports: transportsIn(row) }));
}

/** The options of a new passkey's registration, and the id of its challenge. */
export async function passkeyRegistrationOptions(
  user: Account,
): Promise<{ challengeId: string; options: PublicKeyCredentialCreationOptionsJSON }> {
  const { generateRegistrationOptions } = await webauthn();
  const options = await generateRegistrationOptions({
    rpName: firm.shortName,
    rpID: relyingParty().rpID,
    userName: user.email,
    userID: new TextEncoder().encode(user.id),
    attestationType: "none",
    excludeCredentials: await transportsOf(user.id),
    authenticatorSelection: { residentKey: "required", userVerification: "preferred" },
  });
  const challengeId = await createLoginChallenge({
    kind: "passkey_register",
    userId: user.id,
    challenge: options.challenge,
  });
  return { challengeId, options };
}

/** `recoveryCodes`: the set made with the account's first second factor, to be shown once; null when it had one. */
export type PasskeyResult = { ok: true; recoveryCodes: string[] | null } | Failure<400>;

/**
 * Stores the passkey the browser made, once its answer checks out against the challenge. An account
 * without recovery codes gets its ten with it: a lost passkey must not lock its owner out.
 */
export async function registerPasskey({
  user,
  sessionIdHash,
  challengeId,
  response,
  ip,
  userAgent,
}: InSession & {
  challengeId: string;
  response: RegistrationResponseJSON;
  /** The browser that made it, whose browser and system name it until its owner renames it. */
  userAgent: string | null;
}): Promise<PasskeyResult> {
  const challenge = await consumeLoginChallenge(challengeId, "passkey_register");
  if (!challenge?.challenge || challenge.userId !== user.id) return refused(passkeyMessages.expired);
  const { rpID, origin } = relyingParty();
  const { verifyRegistrationResponse } = await webauthn();
  let verification;
  try {
    verification = await verifyRegistrationResponse({
      response,
      expectedChallenge: challenge.challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      requireUserVerification: false,
    });
  } catch (error) {
    log("info", "passkey.registration_refused", { error: (error as Error).message });
    return refused(passkeyMessages.refused);
  }
  if (!verification.verified || !verification.registrationInfo) return refused(passkeyMessages.refused);
  const { credential } = verification.registrationInfo;
  const inserted = await getDb()
    .insertInto("passkeys")
    .values({
      id: credential.id,
      user_id: user.id,
      public_key: credential.publicKey,
      counter: credential.counter,
      transports: JSON.stringify(credential.transports ?? []),
      created_at: now(),
      name: deviceName(userAgent)?.slice(0, PASSKEY_NAME_MAX_LENGTH) ?? null,
    })
    .onConflict((oc) => oc.column("id").doNothing())
    .returning("id")
    .executeTakeFirst();
  if (!inserted) return refused(passkeyMessages.refused);
  const recoveryCodes = await issueRecoveryCodesIfNone(user.id);
  await afterFactorChange({
    account: user,
    keepSessionIdHash: sessionIdHash,
    action: "mfa.passkey_added",
    change: recoveryCodes ? secondFactorChanges.passkeyAddedWithCodes : secondFactorChanges.passkeyAdded,
    ip,
  });
  return { ok: true, recoveryCodes };
}

/**
 * The options of a passkey sign-in, and the id of its challenge. Alone, any passkey of the site's
 * may answer (the browser offers its own); as the second step, only the pending account's.
 */
export async function passkeySignInOptions(userId: string | null) {
  return passkeyRequestOptions("passkey_login", userId);
}

/** The options of a passkey's proof that a signed-in user is who they are, before a security change. */
export async function passkeyConfirmationOptions(userId: string) {
  return passkeyRequestOptions("passkey_confirm", userId);
}

async function passkeyRequestOptions(
  kind: ChallengeKind,
  userId: string | null,
): Promise<{ challengeId: string; options: PublicKeyCredentialRequestOptionsJSON }> {
  const { generateAuthenticationOptions } = await webauthn();
  const options = await generateAuthenticationOptions({
    rpID: relyingParty().rpID,
    allowCredentials: userId ? await transportsOf(userId) : [],
    userVerification: userId ? "preferred" : "required",
  });
  const challengeId = await createLoginChallenge({ kind, userId, challenge: options.challenge });
  return { challengeId, options };
}

export type PasskeySignInResult = { ok: true; user: PublicUser } | Failure<400 | 401>;

type PasskeyAnswer = { challengeId: string; response: AuthenticationResponseJSON } & FromClient;

/**
 * Checks a passkey's answer to a sign-in challenge. Spends the challenge first, so an answer works
 * once; as the second step (`userId`), the passkey must be that account's. The sign-in itself is
 * recorded where its session is opened.
 */
export function signInWithPasskey(answer: PasskeyAnswer): Promise<PasskeySignInResult> {
  return checkPasskeyAnswer("passkey_login", answer);
}

/** Checks a passkey's answer to a confirmation challenge: it must be the signed-in account's own passkey. */
export async function confirmWithPasskey({ user, ...answer }: PasskeyAnswer & { user: Account }): Promise<boolean> {
  const outcome = await checkPasskeyAnswer("passkey_confirm", answer);
  return outcome.ok && outcome.user.id === user.id;
}

async function checkPasskeyAnswer(
  kind: ChallengeKind,
  { challengeId, response, ip }: PasskeyAnswer,
): Promise<PasskeySignInResult> {
  const challenge = await consumeLoginChallenge(challengeId, kind);
  if (!challenge?.challenge) return refused(passkeyMessages.expired);
  const passkey = await getDb().selectFrom("passkeys").selectAll().where("id", "=", response.id).executeTakeFirst();
  if (!passkey || (challenge.userId !== null && passkey.user_id !== challenge.userId)) {
    return unknownPasskey(ip, challenge.userId);
  }
  const { rpID, origin } = relyingParty();
  const { verifyAuthenticationResponse } = await webauthn();
  let verification;
  try {
    verification = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge.challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      credential: {
        id: passkey.id,
        publicKey: new Uint8Array(passkey.public_key),
        counter: passkey.counter,
        transports: transportsIn(passkey),
      },
      requireUserVerification: challenge.userId === null,
    });
  } catch (error) {
    log("info", "passkey.sign_in_refused", { error: (error as Error).message });
    return unknownPasskey(ip, passkey.user_id);
  }
  if (!verification.verified) return unknownPasskey(ip, passkey.user_id);
  await getDb()
    .updateTable("passkeys")
    .set({ counter: verification.authenticationInfo.newCounter, last_used_at: now() })
    .where("id", "=", passkey.id)
    .execute();
  const user = await getUserById(passkey.user_id);
  if (!user) return unknownPasskey(ip, null);
  return { ok: true, user };
}

/** Renames one of the user's passkeys (the name already checked by passkeyNameSchema); false if it is not theirs. */
export async function renamePasskey({ user, passkeyId, name, ip }: InSession & { passkeyId: string; name: string }) {
  const renamed = await getDb()
    .updateTable("passkeys")
    .set({ name })
    .where("id", "=", passkeyId)
    .where("user_id", "=", user.id)
    .executeTakeFirst();
  if (!renamed.numUpdatedRows) return false;
  await recordOwnAccountEvent(user, "mfa.passkey_renamed", { ip, details: { name } });
  return true;
}

/** Removes one of the user's passkeys; false if it is not theirs. */
export async function removePasskey({ user, sessionIdHash, passkeyId, ip }: InSession & { passkeyId: string }) {
  const removed = await getDb()
    .deleteFrom("passkeys")
    .where("id", "=", passkeyId)
    .where("user_id", "=", user.id)
    .executeTakeFirst();
  if (!removed.numDeletedRows) return false;
  await forgetRecoveryCodesWithoutFactor(user.id);
  await afterFactorChange({
    account: user,
    keepSessionIdHash: sessionIdHash,
    action: "mfa.passkey_removed",
    change: secondFactorChanges.passkeyRemoved,
    ip,
  });
  return true;
}

async function unknownPasskey(ip: string, userId: string | null): Promise<Failure<401>> {
  await recordAuditEvent({ action: "mfa.failed", targetId: userId, details: { kind: "passkey" }, ip });
  return { ok: false, status: 401, message: passkeyMessages.refused };
}

function refused(message: string): Failure<400> {
  return { ok: false, status: 400, message };
}
