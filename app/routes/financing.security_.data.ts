import { type ActionFunctionArgs, type LoaderFunctionArgs, redirect } from "@remix-run/node";
import { myDataContent } from "~/content/my-details";
import { requireUserSession } from "~/http/auth.server";
import { errorPageHtml } from "~/http/error-page.server";
import { readFormBody } from "~/http/form-body.server";
import { confirmHref, sudoRefusal } from "~/http/sudo.server";
import { textBytes } from "~/http/text-bytes.server";
import { exportPersonalData } from "~/models/account/personal-data.server";

const SECURITY_PATH = "/financing/security";

/** The download is a POST (it is recorded and e-mailed); an address typed or followed goes to its button. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUserSession(request);
  return redirect(SECURITY_PATH);
}

/**
 * "Download my data": the account's data as a JSON file, only in "sudo mode" (the password, and the second
 * factor where there is one, confirmed in this session in the last 10 minutes). Without it, 403: a browser
 * gets a page with the way to confirm, a script the sentence.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const session = await requireUserSession(request);
  const body = await readFormBody(request);
  if (!body.ok) return refusal(request, body.status, body.message);
  const refused = sudoRefusal(session);
  if (refused) return refusal(request, refused.status, myDataContent.needsConfirmation, confirmHref(SECURITY_PATH));

  const json = await exportPersonalData({ account: session.user, sessionIdHash: session.idHash, ip: context.clientIp });
  return new Response(textBytes(json), {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="${myDataContent.fileName}"`,
      "Cache-Control": "private, no-store",
    },
  });
}

function refusal(request: Request, status: number, message: string, confirm?: string) {
  const headers = { "Cache-Control": "private, no-store" };
  if (!(request.headers.get("Accept") ?? "").includes("text/html")) {
    return new Response(`${message}\n`, {
      status,
      headers: { ...headers, "Content-Type": "text/plain; charset=utf-8" },
    });
  }
  const next = confirm ? { href: confirm, label: myDataContent.confirmLink } : undefined;
  return new Response(errorPageHtml(status, message, next), {
    status,
    headers: { ...headers, "Content-Type": "text/html; charset=utf-8" },
  });
}
