/**
 * The server side of an investor's page: what it shows, and its actions. The NDA flags are also posted
 * here by the investor table, which sends its own URL as `returnTo`; the other actions come back to the
 * page. A correction, a reset of the second factor (and the deletion, on its own page) change access, so
 * they run only in "sudo mode" (app/http/sudo.server.ts).
 */
import { json } from "@remix-run/node";
import { z } from "zod";
import { adminContent } from "~/content/admin";
import { investorPageContent } from "~/content/investor-page";
import { requireAdminSession } from "~/http/auth.server";
import { readFormBody } from "~/http/form-body.server";
import { parseSubmission } from "~/http/form-submission.server";
import { refusalInit } from "~/http/retry-after";
import { sudoRefusal, sudoState } from "~/http/sudo.server";
import { redirectWithError, redirectWithToast } from "~/http/toast.server";
import type { FormReply } from "~/lib/form-reply";
import { investorPagePath as pagePath, safeReturnTo } from "~/lib/investor-table";
import { readPortalFeatures } from "~/models/features/portal-features.server";
import {
  activityCursorSchema,
  correctInvestor,
  correctionSchema,
  investorActivity,
  investorIdSchema,
  investorPageRecord,
  investorRecord,
  resendInvestorVerification,
  resetInvestorFactor,
} from "~/models/investors/investor-record.server";
import { markNdaSignedOutside, setNdaSent, setNdaSigned } from "~/models/investors/nda-flags.server";
import { readingsOf } from "~/models/library/library-openings.server";
import { ndaRecord } from "~/models/nda/nda-record.server";
import { ndaOutsideFormSchema } from "~/models/nda/nda-schemas.server";
import { investorReadingTime } from "~/models/reading/reading-insights.server";

const words = investorPageContent;
const TEXT_HEADERS = { "Content-Type": "text/plain; charset=utf-8" };

/** The id of the URL: a malformed one is a bad request (400), not an unknown investor. */
function investorIdOf(params: { id?: string }): string {
  const id = investorIdSchema.safeParse(params.id);
  if (!id.success) throw new Response(words.errors.idInvalid, { status: 400, headers: TEXT_HEADERS });
  return id.data;
}

export async function investorPageLoader(request: Request, params: { id?: string }) {
  const session = await requireAdminSession(request);
  const id = investorIdOf(params);
  const before = new URL(request.url).searchParams.get("before");
  const cursor = before === null ? undefined : activityCursorSchema.safeParse(before);
  if (cursor && !cursor.success) throw new Response(words.errors.cursorInvalid, { status: 400, headers: TEXT_HEADERS });
  // Asked for together: an unknown id simply has no activity.
  const [record, activity, readings, readingTime, features, nda] = await Promise.all([
    investorPageRecord(id),
    investorActivity(id, cursor?.data),
    readingsOf(id),
    investorReadingTime(id),
    readPortalFeatures(),
    ndaRecord(id),
  ]);
  if (!record) throw new Response(words.errors.notFound, { status: 404, headers: TEXT_HEADERS });
  return json(
    {
      record,
      activity,
      readings,
      readingTime,
      nda,
      olderThan: cursor?.data ?? null,
      sudo: sudoState(session, pagePath(id)),
      qualificationShown: features.qualification,
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

const intentSchema = z.enum([
  "nda-sent",
  "nda-signed",
  "nda-outside",
  "correct",
  "resend-verification",
  "reset-factor",
]);

const flagSchema = z.object({
  intent: z.enum(["nda-sent", "nda-signed"]),
  state: z.enum(["yes", "no"]),
});

type Intent = z.output<typeof intentSchema>;

/** A refused action: the page shows its message beside the form it came from. */
function refused(intent: Intent | null, message: string, init: ResponseInit | number, result: FormReply | null = null) {
  return json({ intent, message, result }, init);
}

export async function investorPageAction(request: Request, params: { id?: string }, clientIp: string) {
  const session = await requireAdminSession(request);
  const actor = session.user;
  const id = investorIdOf(params);
  const body = await readFormBody(request);
  // Not a browser's form: the page says so above its forms.
  if (!body.ok) return refused(null, body.message, body.status);
  const { formData } = body;
  // Which form this is, read alone: each form's own fields are judged by its own schema below.
  const intents = formData.getAll("intent");
  const intent = intentSchema.safeParse(intents.length === 1 ? intents[0] : undefined);
  // As the table's forms always did: back to the table, with the notice that it failed.
  if (!intent.success) return redirectWithError(safeReturnTo(formData.get("returnTo")), adminContent.notices.failed);

  switch (intent.data) {
    case "nda-sent":
    case "nda-signed": {
      const returnTo = safeReturnTo(formData.get("returnTo"));
      // parseSubmission refuses a field sent twice (state=yes&state=no): which one did the administrator mean?
      const flag = parseSubmission(formData, flagSchema.passthrough());
      const investor = await investorRecord(id);
      if (flag.status !== "success" || !investor) return redirectWithError(returnTo, adminContent.notices.failed);
      const state = flag.value.state === "yes";
      const change = flag.value.intent === "nda-sent" ? setNdaSent : setNdaSigned;
      const result = await change({ actor, email: investor.email, state, ip: clientIp });
      if (!result.ok) return redirectWithError(returnTo, result.message);
      const context = words.ndaChange({
        flag: flag.value.intent === "nda-sent" ? "sent" : "signed",
        state,
        who: investor.fullName || investor.email,
        alsoChanged: flag.value.intent === "nda-signed" ? state && !investor.isNDASent : !state && investor.isNDASigned,
      });
      const notice =
        flag.value.intent === "nda-sent" ? adminContent.notices.ndaSentChanged : adminContent.notices.ndaChanged;
      return redirectWithToast(returnTo, `${notice}: ${context}`);
    }
    case "nda-outside": {
      const submission = parseSubmission(formData, ndaOutsideFormSchema, { keepEmpty: true });
      if (submission.status !== "success") return refused("nda-outside", "", 400, submission.reply());
      const result = await markNdaSignedOutside({
        actor,
        id,
        reason: submission.value.reason,
        file: await chosenFile(formData.get("file")),
        ip: clientIp,
      });
      if (!result.ok) {
        return refused(
          "nda-outside",
          result.message,
          result.status,
          submission.reply({ formErrors: [result.message] }),
        );
      }
      return redirectWithToast(pagePath(id), `${adminContent.notices.ndaChanged}: ${words.notices.signedOutside}`);
    }
    case "correct": {
      const submission = parseSubmission(formData, correctionSchema.extend({ intent: z.literal("correct") }), {
        keepEmpty: true,
      });
      const sudo = sudoRefusal(session);
      if (sudo) return refused("correct", sudo.message, 403);
      if (submission.status !== "success") {
        return refused("correct", "", 400, submission.reply());
      }
      const result = await correctInvestor({ actor, id, correction: submission.value, ip: clientIp });
      if (!result.ok) {
        return refused("correct", result.message, result.status, submission.reply({ formErrors: [result.message] }));
      }
      return redirectWithToast(pagePath(id), words.notices.corrected);
    }
    case "resend-verification": {
      const result = await resendInvestorVerification({ actor, id, ip: clientIp });
      if (!result.ok) return refused("resend-verification", result.message, refusalInit(result));
      return redirectWithToast(pagePath(id), words.notices.verificationSent);
    }
    case "reset-factor": {
      const sudo = sudoRefusal(session);
      if (sudo) return refused("reset-factor", sudo.message, 403);
      const result = await resetInvestorFactor({ actor, id, ip: clientIp });
      if (!result.ok) return refused("reset-factor", result.message, result.status);
      return redirectWithToast(pagePath(id), words.notices.factorReset);
    }
  }
}

/** The form's file, if one was chosen: a browser sends an empty, nameless part for a file input left empty. */
async function chosenFile(entry: FormDataEntryValue | null) {
  if (!entry || typeof entry === "string" || entry.size === 0) return null;
  return { bytes: new Uint8Array(await entry.arrayBuffer()), fileName: entry.name };
}
