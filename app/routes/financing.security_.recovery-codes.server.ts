import { type ActionFunctionArgs, json, type LoaderFunctionArgs, redirect } from "@remix-run/node";
import { recoveryCodesPage, recoveryCodesPrompt } from "~/content/recovery-codes";
import { requireUserSession } from "~/http/auth.server";
import { readFormBody } from "~/http/form-body.server";
import { parseSubmission } from "~/http/form-submission.server";
import { isFreshSignIn, isReauthenticated, type LiveSession } from "~/models/account/session.server";
import { recoveryCodesPageSchema } from "~/models/second-factor/second-factor-schemas.server";
import { issueMissingRecoveryCodes, needsRecoveryCodes } from "~/models/second-factor/second-factor.server";

const NO_STORE = { "Cache-Control": "private, no-store" };

type Answer = { codes: string[] | null; continueTo: "/financing" | "/financing/security"; errors: string[] | null };

/**
 * A first set may be made here only just after a sign-in (or a "Confirm it's you"): someone holding
 * an older session, stolen perhaps, cannot give the account a set of codes the owner never saw.
 */
async function mayIssue(session: LiveSession) {
  return isReauthenticated(session) || (await isFreshSignIn(session.idHash));
}

/**
 * Where a sign-in of an account with a second factor and no recovery codes lands: the offer to make
 * them. Nothing is made on arrival: a set exists in clear only in the answer that makes it, so it is
 * made by the page's form (a reload or a prefetch must not make, and lose, a set).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const session = await requireUserSession(request);
  const offer = await needsRecoveryCodes(session.user.id);
  return json({ offer, fresh: offer && (await mayIssue(session)) }, { headers: NO_STORE });
}

/** "issue": the sign-in's first set. "continue": the end of every page that shows a new set, once it is saved. */
export async function action({ request, context }: ActionFunctionArgs) {
  const session = await requireUserSession(request);
  const refuse = (status: number, message: string, shown?: Pick<Answer, "codes" | "continueTo">) =>
    json<Answer>(
      { codes: shown?.codes ?? null, continueTo: shown?.continueTo ?? "/financing", errors: [message] },
      { status, headers: NO_STORE },
    );
  const body = await readFormBody(request);
  if (!body.ok) return refuse(body.status, body.message);
  const submission = parseSubmission(body.formData, recoveryCodesPageSchema);
  if (submission.status !== "success") {
    return refuse(400, Object.values(submission.reply().error).flat()[0] ?? recoveryCodesPage.malformed);
  }
  const asked = submission.value;
  if (asked.intent === "continue") {
    if (asked.saved !== "on")
      return refuse(400, recoveryCodesPage.savedMissing, { codes: asked.codes, continueTo: asked.next });
    return redirect(asked.next);
  }
  if (!(await mayIssue(session))) return refuse(403, recoveryCodesPrompt.stale);
  const codes = await issueMissingRecoveryCodes({
    user: session.user,
    sessionIdHash: session.idHash,
    ip: context.clientIp,
  });
  if (!codes) return refuse(409, recoveryCodesPrompt.already);
  return json<Answer>({ codes, continueTo: "/financing", errors: null }, { headers: NO_STORE });
}
