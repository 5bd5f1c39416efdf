/**
 * Where an account is signed in, as its owner sees and ends it: the web sessions and the API's token
 * families, each with the client it came from. Ending one needs no "Confirm it's you": it only takes
 * access away, and someone whose session was stolen must be able to end the thief's at once.
 */
import { recordOwnAccountEvent } from "~/models/audit/audit.server";
import { listApiAccess, revokeApiAccess, revokeApiTokens } from "./api-token.server";
import { describeUserAgent } from "./client-device.server";
import { deleteOtherSession, deleteUserSessions, listSessions } from "./session.server";
import type { PublicUser } from "./user.server";

type InSession = { user: Pick<PublicUser, "id" | "email">; sessionIdHash: string; ip: string };

export type SignedInClient = {
  id: string;
  /** The browser and system, or what a program calls itself, or "Unknown". */
  device: string;
  ip: string | null;
  signedInAt: string;
  lastSeenAt: string;
  current: boolean;
};

/** The account's live web sessions and API sign-ins, the newest first, the asking session marked. */
export async function signedInClients(userId: string, currentIdHash: string) {
  const [sessions, apiAccess] = await Promise.all([listSessions(userId, currentIdHash), listApiAccess(userId)]);
  return {
    sessions: sessions.map((session): SignedInClient => ({
      id: session.publicId,
      device: describeUserAgent(session.userAgent),
      ip: session.ip,
      signedInAt: session.createdAt,
      lastSeenAt: session.lastSeenAt,
      current: session.current,
    })),
    apiAccess: apiAccess.map((family): SignedInClient => ({
      id: family.id,
      device: describeUserAgent(family.userAgent),
      ip: family.ip,
      signedInAt: family.createdAt,
      lastSeenAt: family.lastUsedAt,
      current: false,
    })),
  };
}

/** Signs out one other session of the account; false when it has none by that id. */
export async function signOutSession({ user, sessionIdHash, ip, sessionId }: InSession & { sessionId: string }) {
  const ended = await deleteOtherSession({ userId: user.id, publicId: sessionId, currentIdHash: sessionIdHash });
  if (ended) await recordOwnAccountEvent(user, "session.signed_out", { ip, details: { session: sessionId } });
  return ended;
}

/** Revokes one API sign-in of the account; false when it has no live one by that id. */
export async function revokeApiSignIn({ user, ip, familyId }: InSession & { familyId: string }) {
  const revoked = await revokeApiAccess(user.id, familyId);
  if (revoked) await recordOwnAccountEvent(user, "api_access.revoked", { ip, details: { family: familyId } });
  return revoked;
}

/** Signs out every other session and ends all API access; the asking session stays. */
export async function signOutEverywhereElse({ user, sessionIdHash, ip }: InSession) {
  await deleteUserSessions(user.id, { keepIdHash: sessionIdHash });
  await revokeApiTokens({ userId: user.id });
  await recordOwnAccountEvent(user, "session.others_signed_out", { ip, details: { otherSessionsEnded: true } });
}
