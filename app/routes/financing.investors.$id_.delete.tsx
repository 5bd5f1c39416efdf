import {
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  json,
} from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { AdminRefusal } from "~/components/admin-refusal";
import { FormErrors } from "~/components/form-field";
import { investorTableLinks } from "~/components/investor-table";
import { SudoNotice } from "~/components/sudo-notice";
import { adminContent } from "~/content/admin";
import { requireAdminSession } from "~/http/auth.server";
import { readFormBody } from "~/http/form-body.server";
import { sudoRefusal, sudoState } from "~/http/sudo.server";
import { redirectWithError, redirectWithSuccess } from "~/http/toast.server";
import { safeReturnTo } from "~/lib/investor-table";
import { pageMeta } from "~/lib/meta";
import { deleteInvestor, getInvestorById } from "~/models/investors/investor-deletion.server";

const words = adminContent.deletePage;

export const links: LinksFunction = () => investorTableLinks();

/** GET: the confirmation page (the no-JavaScript path of Delete). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const session = await requireAdminSession(request);
  const investor = params.id ? await getInvestorById(params.id) : null;
  if (!investor) throw new Response("Not found", { status: 404 });
  const url = new URL(request.url);
  const returnTo = safeReturnTo(url.searchParams.get("returnTo"));
  return json({
    investor: { email: investor.email, fullName: investor.fullName },
    returnTo,
    next: nextTarget(url.searchParams.get("next")),
    sudo: sudoState(session, `${url.pathname}${url.search}`),
  });
}

/** Where the table puts the focus after a deletion: the next row's id, or the table's heading. */
function nextTarget(value: FormDataEntryValue | null): string {
  return typeof value === "string" && /^investor-[A-Za-z0-9-]{1,64}$/.test(value) ? value : "investor-table-heading";
}

/** The table again, at the row after the one deleted (a page coming back to the table lands on it). */
function afterDeletion(returnTo: string, next: string) {
  const [path] = returnTo.split("#");
  return path === "/financing" || path.startsWith("/financing?") ? `${path}#${next}` : "/financing";
}

/** POST: deletes the investor (with sessions, tokens and pending links) and returns to the table. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const session = await requireAdminSession(request);
  const body = await readFormBody(request);
  if (!body.ok) return json({ message: body.message }, { status: body.status });
  // A deletion changes access: only with a fresh "Confirm it's you", and nothing is deleted without one.
  const sudo = sudoRefusal(session);
  if (sudo) return json({ message: sudo.message }, { status: sudo.status });
  const returnTo = safeReturnTo(body.formData.get("returnTo"));
  const result = await deleteInvestor({
    actor: session.user,
    id: params.id ?? "",
    ip: context.clientIp,
  });
  if (!result.ok) return redirectWithError(returnTo, adminContent.notices.failed);
  return redirectWithSuccess(
    afterDeletion(returnTo, nextTarget(body.formData.get("next"))),
    adminContent.notices.deleted,
  );
}

export const meta: MetaFunction = () => pageMeta(words.title, words.description);

export default function ConfirmDeletePage() {
  const { investor, returnTo, next, sudo } = useLoaderData<typeof loader>();
  const refused = useActionData<typeof action>();
  return (
    <section className="confirm-delete" aria-labelledby="confirm-delete-heading">
      <h1 id="confirm-delete-heading">{words.title}</h1>
      <SudoNotice sudo={sudo} />
      <p>{words.question}</p>
      <p>
        <strong>{investor.fullName || investor.email}</strong>
        {investor.fullName ? ` (${investor.email})` : null}
      </p>
      <FormErrors id="confirm-delete-error" errors={refused && "message" in refused ? [refused.message] : undefined} />
      <Form method="post" className="confirm-delete__actions">
        <input type="hidden" name="returnTo" value={returnTo} />
        <input type="hidden" name="next" value={next} />
        <button type="submit" className="button button--danger">
          {words.confirm}
        </button>
        <Link to={returnTo}>{words.cancel}</Link>
      </Form>
    </section>
  );
}

export const ErrorBoundary = () => <AdminRefusal className="confirm-delete" />;
