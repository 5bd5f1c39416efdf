import {
  type ActionFunctionArgs,
  json,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { Form, Link, useActionData } from "@remix-run/react";
import { AdminRefusal } from "~/components/admin-refusal";
import { Field, FormErrors } from "~/components/form-field";
import { investorTableLinks } from "~/components/investor-table";
import { tracePage } from "~/content/copy-trace";
import { requireAdmin } from "~/http/auth.server";
import { readTraceRequest } from "~/http/copy-trace-request.server";
import { formatRegistrationTime } from "~/lib/investor-table";
import { pageMeta } from "~/lib/meta";
import { traceCopy, type TracedCopy } from "~/models/trace/copy-trace.server";
import traceStyles from "~/styles/copy-trace.css";

const words = tracePage;
const NO_STORE = { "Cache-Control": "private, no-store" };

export const links: LinksFunction = () => [...investorTableLinks(), { rel: "stylesheet", href: traceStyles }];

export const meta: MetaFunction = () => pageMeta(words.title, words.description);

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return json(null, { headers: NO_STORE });
}

type TraceReply =
  | { ok: false; message: string }
  | {
      ok: true;
      source: "pasted" | "upload";
      downloadId: string | null;
      readFrom: "metadata" | "stamp" | null;
      copy: TracedCopy | null;
    };

/** Whose copy it is: a pasted download id, or one read from an uploaded PDF; each lookup audited. */
export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireAdmin(request);
  const given = await readTraceRequest(request);
  if (!given.ok)
    return json<TraceReply>({ ok: false, message: given.message }, { status: given.status, headers: NO_STORE });
  const copy = await traceCopy(given.downloadId, { user, ip: context.clientIp, source: given.source });
  return json<TraceReply>({ ...given, copy }, { headers: NO_STORE });
}

export default function TracePage() {
  const reply = useActionData<typeof action>();
  return (
    <section className="investor-page trace-page" aria-labelledby="trace-heading">
      <p>
        <Link to="/financing">{words.back}</Link>
      </p>
      <h1 id="trace-heading">{words.heading}</h1>
      <p>{words.intro}</p>
      <FormErrors id="trace-error" errors={reply && !reply.ok ? [reply.message] : undefined} />
      {reply?.ok ? <TraceResult reply={reply} /> : null}
      <Form method="post" aria-describedby="trace-error">
        <fieldset>
          <legend>{words.pasteLegend}</legend>
          <Field
            id="trace-download-id"
            name="downloadId"
            label={words.downloadId}
            hint={words.downloadIdHint}
            autoComplete="off"
            spellCheck={false}
            required
          />
          <button type="submit" className="button">
            {words.paste}
          </button>
        </fieldset>
      </Form>
      <Form method="post" encType="multipart/form-data" aria-describedby="trace-error">
        <fieldset>
          <legend>{words.uploadLegend}</legend>
          <Field
            id="trace-file"
            name="file"
            type="file"
            accept="application/pdf,.pdf"
            label={words.file}
            hint={words.fileHint}
            required
          />
          <button type="submit" className="button">
            {words.upload}
          </button>
        </fieldset>
      </Form>
    </section>
  );
}

function TraceResult({ reply }: { reply: Extract<TraceReply, { ok: true }> }) {
  const { copy } = reply;
  if (!copy) {
    const detail =
      reply.source === "pasted"
        ? words.notACopyDetail.pasted
        : reply.downloadId
          ? words.notACopyDetail.unknownId
          : words.notACopyDetail.upload;
    return (
      <div role="status" className="trace-result">
        <h2>{words.notACopy}</h2>
        <p>{detail}</p>
      </div>
    );
  }
  const found = words.found;
  const reader = copy.reader.fullName ? `${copy.reader.fullName} <${copy.reader.email}>` : copy.reader.email;
  return (
    <div role="status" className="trace-result">
      <h2>{found.heading}</h2>
      <dl>
        <dt>{found.reader}</dt>
        <dd>{copy.reader.id ? <Link to={`/financing/investors/${copy.reader.id}`}>{reader}</Link> : reader}</dd>
        <dt>{found.delivered}</dt>
        <dd>{formatRegistrationTime(new Date(copy.deliveredAt).toISOString())}</dd>
        <dt>{found.document}</dt>
        <dd>{copy.document ? copy.document.title : found.shippedFile(copy.file ?? "")}</dd>
        {copy.version !== null ? (
          <>
            <dt>{found.version}</dt>
            <dd>{copy.version}</dd>
          </>
        ) : null}
        <dt>{found.address}</dt>
        <dd>{copy.ip ?? found.unknownAddress}</dd>
        <dt>{found.downloadId}</dt>
        <dd>
          <code>{copy.downloadId}</code>
        </dd>
      </dl>
      {reply.readFrom ? <p>{found.readFrom[reply.readFrom]}</p> : null}
      {copy.delivered ? null : <p>{found.notDelivered}</p>}
    </div>
  );
}

export const ErrorBoundary = () => <AdminRefusal className="investor-page" />;
