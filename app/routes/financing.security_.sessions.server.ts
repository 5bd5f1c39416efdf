import { type ActionFunctionArgs, json, type LoaderFunctionArgs } from "@remix-run/node";
import { sessionsMessages, sessionsNotices } from "~/content/account-sessions";
import { requireUserSession } from "~/http/auth.server";
import { readFormBody } from "~/http/form-body.server";
import { parseSubmission } from "~/http/form-submission.server";
import { redirectWithSuccess } from "~/http/toast.server";
import { sessionsChangeSchema } from "~/models/account/account-sessions-schema.server";
import {
  revokeApiSignIn,
  signedInClients,
  signOutEverywhereElse,
  signOutSession,
} from "~/models/account/account-sessions.server";

const SESSIONS_PATH = "/financing/security/sessions";

export async function loader({ request }: LoaderFunctionArgs) {
  const session = await requireUserSession(request);
  return json(await signedInClients(session.user.id, session.idHash), {
    headers: { "Cache-Control": "private, no-store" },
  });
}

/** Ending a sign-in asks for no confirmation: it only takes access away (docs/requirements.md, 7c). */
export async function action({ request, context }: ActionFunctionArgs) {
  const session = await requireUserSession(request);
  const body = await readFormBody(request);
  if (!body.ok) return json({ message: body.message }, { status: body.status });
  const submission = parseSubmission(body.formData, sessionsChangeSchema);
  if (submission.status !== "success") {
    const messages = Object.values(submission.reply().error).flat();
    return json({ message: messages[0] ?? sessionsMessages.unknownChange }, { status: 400 });
  }
  const change = submission.value;
  const inSession = { user: session.user, sessionIdHash: session.idHash, ip: context.clientIp };
  switch (change.intent) {
    case "sign-out":
      if (!(await signOutSession({ ...inSession, sessionId: change.sessionId }))) {
        return json({ message: sessionsMessages.noSuchSession }, { status: 404 });
      }
      return redirectWithSuccess(SESSIONS_PATH, sessionsNotices.signedOut);
    case "revoke":
      if (!(await revokeApiSignIn({ ...inSession, familyId: change.familyId }))) {
        return json({ message: sessionsMessages.noSuchApiAccess }, { status: 404 });
      }
      return redirectWithSuccess(SESSIONS_PATH, sessionsNotices.revoked);
    case "sign-out-others":
      await signOutEverywhereElse(inSession);
      return redirectWithSuccess(SESSIONS_PATH, sessionsNotices.othersSignedOut);
  }
}
