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
import { adminContent } from "~/content/admin";
import { requireAdmin } from "~/http/auth.server";
import { readFormBody } from "~/http/form-body.server";
import { redirectWithError, redirectWithSuccess } from "~/http/toast.server";
import { safeReturnTo } from "~/lib/investor-table";
import { pageMeta } from "~/lib/meta";
import { deleteInvestor, getInvestorById } from "~/models/investor-admin.server";

const words = adminContent.deletePage;

export const links: LinksFunction = () => investorTableLinks();

/** GET: the confirmation page (the no-JavaScript path of Delete). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const investor = params.id ? await getInvestorById(params.id) : null;
  if (!investor) throw new Response("Not found", { status: 404 });
  const returnTo = safeReturnTo(new URL(request.url).searchParams.get("returnTo"));
  return json({ investor: { email: investor.email, fullName: investor.fullName }, returnTo });
}

/** POST: deletes the investor (with sessions, tokens and pending links) and returns to the table. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const actor = await requireAdmin(request);
  const body = await readFormBody(request);
  if (!body.ok) return json({ message: body.message }, { status: body.status });
  const returnTo = safeReturnTo(body.formData.get("returnTo"));
  const result = await deleteInvestor({
    actor,
    id: params.id ?? "",
    ip: context.clientIp,
  });
  if (!result.ok) return redirectWithError(returnTo, adminContent.notices.failed);
  return redirectWithSuccess(returnTo, adminContent.notices.deleted);
}

export const meta: MetaFunction = () => pageMeta(words.title, words.description);

export default function ConfirmDeletePage() {
  const { investor, returnTo } = useLoaderData<typeof loader>();
  const refused = useActionData<typeof action>();
  return (
    <section className="confirm-delete" aria-labelledby="confirm-delete-heading">
      <h1 id="confirm-delete-heading">{words.title}</h1>
      <p>
        <strong>{investor.fullName || investor.email}</strong>
        {investor.fullName ? ` (${investor.email})` : null}
      </p>
      <p>{words.question}</p>
      <FormErrors id="confirm-delete-error" errors={refused && "message" in refused ? [refused.message] : undefined} />
      <Form method="post" className="confirm-delete__actions">
        <input type="hidden" name="returnTo" value={returnTo} />
        <button type="submit" className="button button--danger">
          {words.confirm}
        </button>
        <Link to={returnTo}>{words.cancel}</Link>
      </Form>
    </section>
  );
}

export const ErrorBoundary = () => <AdminRefusal className="confirm-delete" />;
