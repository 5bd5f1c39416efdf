import {
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { Fragment, type ReactNode } from "react";
import { AddressLines } from "~/components/address-lines";
import { AdminRefusal } from "~/components/admin-refusal";
import { Field, FormErrors } from "~/components/form-field";
import { investorTableLinks } from "~/components/investor-table";
import { NdaOutsideForm } from "~/components/nda-outside-form";
import { NdaRecordSection } from "~/components/nda-record";
import { OpenedAt, ReadingTable, readingTableLinks } from "~/components/reading-table";
import { InvestorReadingTime } from "~/components/reading-time";
import { SudoNotice } from "~/components/sudo-notice";
import { adminContent } from "~/content/admin";
import { investorPageContent, REASON_MAX_LENGTH } from "~/content/investor-page";
import { investorStepsContent } from "~/content/investor-steps";
import { readingContent } from "~/content/library-reading";
import { describeSecondFactor, formatRegistrationTime, investorPagePath as pagePath } from "~/lib/investor-table";
import { pageMeta } from "~/lib/meta";
import type {
  InvestorPageRecord,
  InvestorRecord,
  StepChangeKind,
  TimelineStep,
} from "~/models/investors/investor-record.server";
import type { ReadingOfInvestor } from "~/models/library/library-openings.server";
import { investorPageAction, investorPageLoader } from "./financing.investors.$id.server";

const words = investorPageContent;

export const links: LinksFunction = () => [...investorTableLinks(), ...readingTableLinks()];

export const loader = ({ request, params }: LoaderFunctionArgs) => investorPageLoader(request, params);

export const action = ({ request, params, context }: ActionFunctionArgs) =>
  investorPageAction(request, params, context.clientIp);

export const meta: MetaFunction = () => pageMeta(words.title, words.description);

const when = (iso: string | null) => (iso ? formatRegistrationTime(iso) : "");

export default function InvestorPage() {
  const { record, activity, readings, readingTime, nda, olderThan, sudo, qualificationShown } =
    useLoaderData<typeof loader>();
  const refused = useActionData<typeof action>();
  const refusalFor = (intent: string) =>
    refused && refused.intent === intent && refused.message ? [refused.message] : undefined;
  const name = record.fullName || record.email;
  return (
    <section className="investor-page" aria-labelledby="investor-page-heading">
      <p>
        <Link to="/financing">{words.back}</Link>
      </p>
      <h1 id="investor-page-heading">{name}</h1>
      <SudoNotice sudo={sudo} />
      <FormErrors
        id="investor-page-error"
        errors={refused && refused.intent === null ? [refused.message] : undefined}
      />

      <Who record={record} />
      {qualificationShown ? (
        <p>
          <Link to={`${pagePath(record.id)}/qualification`}>{investorStepsContent.verify.link}</Link>
        </p>
      ) : null}
      <Timeline record={record} />
      <NdaRecordSection record={nda} filePath={(file) => `${pagePath(record.id)}/nda/${file}.pdf`} />

      <section aria-labelledby="investor-actions-heading" className="investor-page__actions">
        <h2 id="investor-actions-heading">{words.actions.heading}</h2>

        <section aria-labelledby="nda-heading">
          <h3 id="nda-heading">{words.actions.nda.heading}</h3>
          <FlagForm
            id={record.id}
            intent="nda-sent"
            label={adminContent.table.columns.ndaSent}
            value={record.isNDASent}
          />
          {/* Completed by hand only with its reason; once completed, the flag can be undone here. */}
          {record.isNDASigned ? (
            <FlagForm
              id={record.id}
              intent="nda-signed"
              label={adminContent.table.columns.ndaSigned}
              value={record.isNDASigned}
            />
          ) : (
            <NdaOutsideForm
              returnTo={pagePath(record.id)}
              refusal={refusalFor("nda-outside")}
              reply={refused?.intent === "nda-outside" ? refused.result : undefined}
            />
          )}
        </section>

        <section aria-labelledby="correct-heading">
          <h3 id="correct-heading">{words.actions.correct.heading}</h3>
          <Form method="post" className="investor-page__form" noValidate>
            <input type="hidden" name="intent" value="correct" />
            <FormErrors
              id="correct-error"
              errors={refusalFor("correct") ?? (refused?.intent === "correct" ? refused.result?.error[""] : undefined)}
            />
            <Field
              id="correct-full-name"
              name="fullName"
              label={words.actions.correct.fullName}
              defaultValue={correctionValue(refused, "fullName", record.fullName)}
              errors={correctionErrors(refused, "fullName")}
              autoComplete="off"
              required
            />
            <Field
              id="correct-address"
              name="address"
              label={words.actions.correct.address}
              defaultValue={correctionValue(refused, "address", record.address)}
              errors={correctionErrors(refused, "address")}
              autoComplete="off"
              required
            />
            <Field
              id="correct-reason"
              name="reason"
              label={words.actions.correct.reason}
              hint={words.actions.correct.reasonHint}
              defaultValue={correctionValue(refused, "reason", "")}
              errors={correctionErrors(refused, "reason")}
              maxLength={REASON_MAX_LENGTH}
              multiline
              required
            />
            <button type="submit" className="button">
              {words.actions.correct.submit}
            </button>
          </Form>
        </section>

        <section aria-labelledby="resend-heading">
          <h3 id="resend-heading">{words.actions.resend.heading}</h3>
          {record.emailVerified ? (
            <p>{words.actions.resend.verified}</p>
          ) : (
            <IntentButton
              intent="resend-verification"
              errorId="resend-error"
              errors={refusalFor("resend-verification")}
              label={words.actions.resend.submit}
            />
          )}
        </section>

        <section aria-labelledby="reset-heading">
          <h3 id="reset-heading">{words.actions.reset.heading}</h3>
          {record.secondFactor.authenticator || record.secondFactor.passkeys > 0 ? (
            <>
              <p>{words.actions.reset.intro}</p>
              <IntentButton
                intent="reset-factor"
                errorId="reset-error"
                errors={refusalFor("reset-factor")}
                label={words.actions.reset.submit}
                danger
              />
            </>
          ) : (
            <p>{words.actions.reset.none}</p>
          )}
        </section>

        <section aria-labelledby="delete-heading">
          <h3 id="delete-heading">{words.actions.remove.heading}</h3>
          <p>
            <Link to={`${pagePath(record.id)}/delete?${new URLSearchParams({ returnTo: pagePath(record.id) })}`}>
              {words.actions.remove.link}
            </Link>
          </p>
        </section>
      </section>

      <MaterialsOpened id={record.id} readings={readings} />
      <InvestorReadingTime readings={readingTime} />
      <Activity id={record.id} activity={activity} olderThan={olderThan} />
    </section>
  );
}

type Refusal = ReturnType<typeof useActionData<typeof action>>;

/** One of the page's actions that is only a button: its intent, and its refusal above it. */
function IntentButton({
  intent,
  errorId,
  errors,
  label,
  danger = false,
}: {
  intent: string;
  errorId: string;
  errors: string[] | undefined;
  label: string;
  danger?: boolean;
}) {
  return (
    <Form method="post">
      <input type="hidden" name="intent" value={intent} />
      <FormErrors id={errorId} errors={errors} />
      <button type="submit" className={danger ? "button button--danger" : "button"}>
        {label}
      </button>
    </Form>
  );
}

function correctionValue(refused: Refusal, field: string, fallback: string) {
  return refused?.intent === "correct" && refused.result ? (refused.result.initialValue[field] ?? fallback) : fallback;
}

function correctionErrors(refused: Refusal, field: string) {
  return refused?.intent === "correct" ? refused.result?.error[field] : undefined;
}

function Who({ record }: { record: InvestorPageRecord }) {
  const rows: [string, ReactNode][] = [
    [words.who.email, record.email],
    [words.who.name, record.fullName || words.unnamed],
    [words.who.address, <AddressLines key="address" address={record.address} lines={record.addressLines} />],
    [words.who.verified, record.emailVerified ? words.who.yes : words.who.no],
    [words.who.registered, when(record.registeredAt)],
    [words.who.lastSignIn, record.lastSignInAt ? when(record.lastSignInAt) : words.who.neverSince],
    [words.who.secondFactor, describeSecondFactor(record.secondFactor)],
    [words.who.sessions, String(record.sessionsOpen)],
  ];
  return (
    <section aria-labelledby="investor-who-heading">
      <h2 id="investor-who-heading">{words.who.heading}</h2>
      <dl className="investor-page__facts">
        {rows.map(([term, value]) => (
          <div key={term}>
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** A step's other changes, each with its words. */
function changesOf<Kind extends StepChangeKind>(step: TimelineStep<Kind>, labels: Record<Kind, string>) {
  return step.history.map((line) => ({ ...line, label: labels[line.change] }));
}

function Timeline({ record }: { record: Pick<InvestorRecord, "timeline"> }) {
  const { timeline } = record;
  const changes = words.timeline.changes;
  const steps: { label: string; step: TimelineStep; lines: ReturnType<typeof changesOf> }[] = [
    {
      label: words.timeline.steps.details,
      step: timeline.details,
      lines: changesOf(timeline.details, changes.details),
    },
    { label: words.timeline.steps.sent, step: timeline.sent, lines: changesOf(timeline.sent, changes.sent) },
    { label: words.timeline.steps.signed, step: timeline.signed, lines: changesOf(timeline.signed, changes.signed) },
  ];
  return (
    <section aria-labelledby="investor-timeline-heading">
      <h2 id="investor-timeline-heading">{words.timeline.heading}</h2>
      <table className="audit-table">
        <caption className="visually-hidden">{words.timeline.caption}</caption>
        <thead>
          <tr>
            <th scope="col">{words.timeline.step}</th>
            <th scope="col">{words.timeline.when}</th>
            <th scope="col">{words.timeline.by}</th>
          </tr>
        </thead>
        <tbody>
          {steps.map(({ label, step, lines }) => (
            <Fragment key={label}>
              <tr>
                <th scope="row">{label}</th>
                <td>{!step.done ? words.timeline.notYet : step.at ? when(step.at) : words.timeline.unrecorded}</td>
                <td>{step.done ? (step.by ?? "") : ""}</td>
              </tr>
              {lines.map((line, index) => (
                <tr key={`${label} ${index}`} className="investor-page__change">
                  <th scope="row">{line.label}</th>
                  <td>{when(line.at)}</td>
                  <td>{line.by ?? ""}</td>
                </tr>
              ))}
            </Fragment>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function FlagForm({
  id,
  intent,
  label,
  value,
}: {
  id: string;
  intent: "nda-sent" | "nda-signed";
  label: string;
  value: boolean;
}) {
  return (
    <Form method="post" className="flag-form">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="returnTo" value={pagePath(id)} />
      <label htmlFor={`page-${intent}`}>{label}</label>
      <select id={`page-${intent}`} name="state" defaultValue={value ? "yes" : "no"} key={String(value)}>
        <option value="yes">{adminContent.table.yes}</option>
        <option value="no">{adminContent.table.no}</option>
      </select>
      <button type="submit" className="button button--small" aria-label={`${words.actions.nda.save}: ${label}`}>
        {words.actions.nda.save}
      </button>
    </Form>
  );
}

function MaterialsOpened({ id, readings }: { id: string; readings: ReadingOfInvestor[] }) {
  const opened = readingContent.investor;
  return (
    <section aria-labelledby="investor-readings-heading">
      <h2 id="investor-readings-heading">{opened.heading}</h2>
      {readings.length === 0 ? (
        <p>{opened.empty}</p>
      ) : (
        <>
          <ReadingTable
            caption={opened.caption}
            columns={Object.values(opened.columns)}
            rows={readings.map((reading) => ({
              key: reading.documentId,
              cells: [
                { value: <Link to={`/financing/library/reading/${reading.documentId}`}>{reading.title}</Link> },
                { value: reading.opens, number: true },
                { value: <OpenedAt at={reading.firstOpenedAt} /> },
                { value: <OpenedAt at={reading.lastOpenedAt} /> },
              ],
            }))}
          />
          <p>
            <a href={`${pagePath(id)}/readings.csv`} download>
              {opened.csv}
            </a>
          </p>
        </>
      )}
    </section>
  );
}

function Activity({
  id,
  activity,
  olderThan,
}: {
  id: string;
  activity: { entries: { id: number; at: string; action: string; detail: string }[]; nextCursor: string | null };
  olderThan: number | null;
}) {
  return (
    <section aria-labelledby="investor-activity-heading">
      <h2 id="investor-activity-heading">{words.activity.heading}</h2>
      {activity.entries.length === 0 ? (
        <p>{words.activity.empty}</p>
      ) : (
        <table className="audit-table">
          <caption className="visually-hidden">{words.activity.caption}</caption>
          <thead>
            <tr>
              <th scope="col">{words.activity.when}</th>
              <th scope="col">{words.activity.what}</th>
            </tr>
          </thead>
          <tbody>
            {activity.entries.map((entry) => (
              <tr key={entry.id}>
                <td>{when(entry.at)}</td>
                <td>{(words.activity.actions[entry.action] ?? ((detail: string) => detail))(entry.detail)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {olderThan === null && !activity.nextCursor ? null : (
        <nav aria-label={words.activity.heading} className="audit-pages">
          <ul>
            {olderThan !== null ? (
              <li>
                <Link to={pagePath(id)}>{words.activity.newest}</Link>
              </li>
            ) : null}
            {activity.nextCursor ? (
              <li>
                <Link to={`${pagePath(id)}?${new URLSearchParams({ before: activity.nextCursor })}`}>
                  {words.activity.older}
                </Link>
              </li>
            ) : null}
          </ul>
        </nav>
      )}
    </section>
  );
}

export const ErrorBoundary = () => <AdminRefusal className="investor-page" />;
