/** The sessions page's forms: sign out one session, revoke one API sign-in, or sign out everywhere else. */
import { z } from "zod";
import { sessionsMessages } from "~/content/account-sessions";

/** An id as the page wrote it: anything else names no session of the account (404, as an unknown one). */
const listedId = (message: string) => z.string({ error: message }).max(64, { error: message });

export const sessionsChangeSchema = z.discriminatedUnion(
  "intent",
  [
    z.object({ intent: z.literal("sign-out"), sessionId: listedId(sessionsMessages.noSuchSession) }),
    z.object({ intent: z.literal("revoke"), familyId: listedId(sessionsMessages.noSuchApiAccess) }),
    z.object({ intent: z.literal("sign-out-others") }),
  ],
  { error: sessionsMessages.unknownChange },
);
