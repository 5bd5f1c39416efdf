import {
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  json,
  redirect,
} from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { FormErrors } from "~/components/form-field";
import { InvestorTable, investorTableLinks } from "~/components/investor-table";
import { MyDetails, NdaSteps } from "~/components/my-details";
import { NameAddressForm } from "~/components/name-address-form";
import { NdaSigning } from "~/components/nda-signing";
import { myDetailsContent } from "~/content/my-details";
import { nameAddressMessages, portalStatus } from "~/content/portal";
import { requireUser, requireUserSession } from "~/http/auth.server";
import { formRefusal, readFormBody } from "~/http/form-body.server";
import { parseSubmission } from "~/http/form-submission.server";
import { isNdaIntent, ndaFormAction } from "~/http/nda-forms.server";
import { sudoState } from "~/http/sudo.server";
import { redirectWithSuccess } from "~/http/toast.server";
import { pageMeta } from "~/lib/meta";
import { investorScreen, ownNdaProgress, setNameAndAddress } from "~/models/investors/investor-profile.server";
import { loadInvestorTable } from "~/models/investors/investor-table.server";
import { detailsCorrectionSchema, nameAddressFormSchema } from "~/models/investors/name-address-schema.server";
import { waitingCount } from "~/models/nda/nda-completion.server";
import { detailsCorrectable } from "~/models/nda/nda-details-open.server";
import { ndaSection } from "~/models/nda/nda-section.server";
import portalStyles from "~/styles/portal.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: portalStyles }, ...investorTableLinks()];

/** The screen is decided here, from the database, on every visit (docs/requirements.md, "Account and NDA states"). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const session = await requireUserSession(request);
  const first = investorScreen(session.user);
  if (first === "materials") throw redirect("/financing/materials");
  if (first === "administrator") {
    const url = new URL(request.url);
    const [table, ndaWaiting] = await Promise.all([loadInvestorTable(url), waitingCount()]);
    return json({ screen: first, table, ndaWaiting, sudo: sudoState(session, table.returnTo) } as const);
  }
  if (first === "name-address") return json({ screen: first, table: null, progress: null, nda: undefined });
  // The section offers the copy ("NDA sent") once the details are given, so it comes first, and the screen
  // follows the offer it may just have made.
  const nda = await ndaSection(session.user, context.clientIp);
  const user = nda?.offered ? { ...session.user, isNDASent: true } : session.user;
  const screen = investorScreen(user);
  return json({ screen, table: null, progress: await ownNdaProgress(user), nda });
}

/**
 * State 0 takes the name and address; state 1 (NDA not sent yet) takes a correction of them, and so does
 * state 2 while the NDA sent is the portal's copy, not yet signed (a correction renders a new copy). Once
 * the NDA is sent otherwise, or signed, they are fixed: a correction is refused (409) and changes nothing. `correction` says whether a
 * reply belongs to the correction form, or to the screen as a whole.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const screen = investorScreen(user);
  if (screen === "administrator") throw redirect("/financing");
  const body = await readFormBody(request);
  if (!body.ok) return json({ correction: false, result: formRefusal(body.message) }, { status: body.status });
  const intent = body.formData.get("intent");
  if (isNdaIntent(intent)) {
    return ndaFormAction(body.formData, {
      user,
      ip: context.clientIp,
      userAgent: request.headers.get("User-Agent"),
    });
  }
  const correcting = body.formData.get("intent") === "correct";
  const fixed =
    screen === "materials" || (screen === "nda-pending" && !(correcting && (await detailsCorrectable(user.id))));
  if (fixed) return json({ correction: false, result: formRefusal(myDetailsContent.fixed) }, { status: 409 });
  // The first form sent again (a second click, a tab left open): the details are given already.
  if (screen === "thank-you" && !correcting) {
    return json({ correction: false, result: formRefusal(myDetailsContent.alreadyGiven) }, { status: 409 });
  }
  const submission = correcting
    ? parseSubmission(body.formData, detailsCorrectionSchema, { keepEmpty: true })
    : parseSubmission(body.formData, nameAddressFormSchema, { keepEmpty: true });
  if (submission.status !== "success") {
    return json({ correction: correcting, result: submission.reply() }, { status: 400 });
  }

  const result = await setNameAndAddress({ actor: user, email: user.email, ...submission.value, ip: context.clientIp });
  if (!result.ok) {
    return json(
      { correction: correcting, result: submission.reply({ formErrors: [result.message] }) },
      { status: result.status },
    );
  }
  if (screen === "name-address") return redirectWithSuccess("/financing", nameAddressMessages.submitted);
  return redirectWithSuccess("/financing", result.changed ? myDetailsContent.corrected : myDetailsContent.unchanged);
}

export const meta: MetaFunction = () => pageMeta(portalStatus.title, portalStatus.description);

export default function FinancingIndexPage() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();

  if (data.screen === "administrator" && "sudo" in data && data.table) {
    return <InvestorTable data={data.table} sudo={data.sudo} ndaWaiting={data.ndaWaiting} />;
  }
  if (data.screen === "name-address") {
    return (
      <div className="auth-page">
        <NameAddressForm lastResult={actionData?.result} />
      </div>
    );
  }
  if (!data.progress) return null;
  // The specification's sentence of each state, word for word, with the steps and the details around it.
  return (
    <section className="portal-status" aria-labelledby="portal-status-heading">
      <h1 id="portal-status-heading">{portalStatus.heading}</h1>
      <FormErrors
        id="portal-status-error"
        errors={!actionData || "nda" in actionData || actionData.correction ? undefined : actionData.result.error[""]}
      />
      <NdaSteps steps={data.progress.steps} />
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
      {data.nda ? (
        <NdaSigning nda={data.nda} lastResult={actionData && "nda" in actionData ? actionData.result : undefined} />
      ) : null}
      <MyDetails
        details={data.progress.details}
        lastResult={actionData && "correction" in actionData && actionData.correction ? actionData.result : undefined}
      />
    </section>
  );
}
