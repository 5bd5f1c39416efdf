import { type ActionFunctionArgs, json } from "@remix-run/node";
import { authNotices } from "~/content/account-pages/notices.server";
import { logIn } from "~/models/account.server";
import { createUserSession, requireAnonymous } from "~/models/session.server";
import { accountDoorLoader } from "~/utils/account-door.server";
import { loginSchema } from "~/utils/account-validation.server";
import { formRefusal, readFormBody } from "~/utils/form-body.server";
import { parseSubmission } from "~/utils/form-submission.server";

export const loader = accountDoorLoader;

export async function action({ request, context }: ActionFunctionArgs) {
  await requireAnonymous(request);
  const body = await readFormBody(request);
  if (!body.ok) return json({ result: formRefusal(body.message), unverifiedEmail: null }, { status: body.status });
  const submission = parseSubmission(body.formData, loginSchema);
  if (submission.status !== "success") {
    return json({ result: submission.reply({ hideFields: ["password"] }), unverifiedEmail: null }, { status: 400 });
  }

  const outcome = await logIn({ ...submission.value, ip: context.clientIp });
  if (!outcome.ok) {
    return json(
      {
        result: submission.reply({ formErrors: [outcome.message], hideFields: ["password"] }),
        // Only after the right password, so it tells a stranger nothing.
        unverifiedEmail: outcome.code === "unverified" ? submission.value.email : null,
      },
      {
        status: outcome.status,
        headers: outcome.retryAfterSeconds ? { "Retry-After": String(outcome.retryAfterSeconds) } : undefined,
      },
    );
  }

  return createUserSession({
    userId: outcome.user.id,
    request,
    redirectTo: "/financing",
    toast: { message: authNotices.loggedIn, type: "success" },
  });
}
