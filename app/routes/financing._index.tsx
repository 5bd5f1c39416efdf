import {
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  json,
  redirect,
} from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { InvestorTable, investorTableLinks } from "~/components/investor-table";
import { NameAddressForm } from "~/components/name-address-form";
import { nameAddressMessages, portalStatus } from "~/content/portal";
import { requireUser, requireUserSession } from "~/http/auth.server";
import { formRefusal, readFormBody } from "~/http/form-body.server";
import { parseSubmission } from "~/http/form-submission.server";
import { sudoState } from "~/http/sudo.server";
import { redirectWithSuccess } from "~/http/toast.server";
import { pageMeta } from "~/lib/meta";
import { loadInvestorTable } from "~/models/investor-admin.server";
import { investorScreen, setNameAndAddress } from "~/models/investor-profile.server";
import { nameAddressFormSchema } from "~/models/name-address-schema.server";
import portalStyles from "~/styles/portal.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: portalStyles }, ...investorTableLinks()];

/** The screen is decided here, from the database, on every visit (docs/requirements.md, "Account and NDA states"). */
export async function loader({ request }: LoaderFunctionArgs) {
  const session = await requireUserSession(request);
  const screen = investorScreen(session.user);
  if (screen === "materials") throw redirect("/financing/materials");
  if (screen === "administrator") {
    const url = new URL(request.url);
    const table = await loadInvestorTable(url);
    return json({ screen, table, sudo: sudoState(session, table.returnTo) } as const);
  }
  return json({ screen, table: null });
}

/** Only state 0 takes a submission: once given, the name and address change through the firm. */
export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request);
  if (investorScreen(user) !== "name-address") throw redirect("/financing");
  const body = await readFormBody(request);
  if (!body.ok) return json({ result: formRefusal(body.message) }, { status: body.status });
  const submission = parseSubmission(body.formData, nameAddressFormSchema, { keepEmpty: true });
  if (submission.status !== "success") return json({ result: submission.reply() }, { status: 400 });

  const result = await setNameAndAddress({ actor: user, email: user.email, ...submission.value, ip: context.clientIp });
  if (!result.ok) {
    return json({ result: submission.reply({ formErrors: [result.message] }) }, { status: result.status });
  }
  return redirectWithSuccess("/financing", nameAddressMessages.submitted);
}

export const meta: MetaFunction = () => pageMeta(portalStatus.title, portalStatus.description);

export default function FinancingIndexPage() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();

  if (data.screen === "administrator" && "sudo" in data && data.table) {
    return <InvestorTable data={data.table} sudo={data.sudo} />;
  }
  if (data.screen === "name-address") {
    return (
      <div className="auth-page">
        <NameAddressForm lastResult={actionData?.result} />
      </div>
    );
  }
  return (
    <section className="portal-status" aria-labelledby="portal-status-heading">
      <h1 id="portal-status-heading">{portalStatus.heading}</h1>
      {data.screen === "thank-you" ? (
        <p className="portal-status__message">{portalStatus.thankYou}</p>
      ) : (
        <>
          <p className="portal-status__message">{portalStatus.ndaPending}</p>
          <p>
            {portalStatus.questions.before}{" "}
            <a href={`mailto:${portalStatus.questions.mailbox}`}>{portalStatus.questions.mailbox}</a>.
          </p>
        </>
      )}
    </section>
  );
}
