import { auditEvents } from "~/content/audit-log";
import { ndaAdminContent } from "~/content/nda";
import { formatRegistrationTime } from "~/lib/investor-table";
import type { NdaEvidence, NdaRecordStep } from "~/lib/nda-record";

const words = ndaAdminContent.record;

/** What the section shows of the NDA record (the model's NdaRecord, as its loader sends it). */
type NdaRecordShown = {
  templateVersion: number | null;
  steps: NdaRecordStep[];
  evidence: NdaEvidence | null;
  signature: { kind: string; sha256: string | null; completedSha256: string | null; reason: string | null } | null;
  files: { signed: boolean; completed: boolean; outside: boolean };
};
const when = (ms: number) => formatRegistrationTime(new Date(ms).toISOString());

/** An investor's NDA record on their page: the template version, each step, the evidence, the hashes, the files. */
export function NdaRecordSection({ record, filePath }: { record: NdaRecordShown; filePath: (file: string) => string }) {
  const { evidence, signature } = record;
  const facts: [string, string | null | undefined][] = [
    [words.typedName, evidence?.typedName],
    [words.email, evidence?.email],
    [words.ip, evidence?.ip],
    [words.userAgent, evidence?.userAgent],
    [words.authMethod, evidence?.authMethod],
    [words.consent, evidence?.consentId],
    [words.copySha256, evidence?.copySha256],
    [words.signedSha256, signature?.sha256],
    [words.completedSha256, signature?.completedSha256],
    [words.reason, signature?.reason],
  ];
  const shown = facts.filter((fact): fact is [string, string] => !!fact[1]);
  return (
    <section aria-labelledby="nda-record-heading" className="investor-page__nda-record">
      <h2 id="nda-record-heading">{words.heading}</h2>
      {record.templateVersion === null && !signature ? <p>{words.none}</p> : null}
      {record.templateVersion !== null ? <p>{words.templateVersion(record.templateVersion)}</p> : null}
      {signature?.kind === "outside" ? <SignedOutside steps={record.steps} hasFile={record.files.outside} /> : null}
      {record.steps.length > 0 ? (
        <>
          <h3>{words.steps}</h3>
          <ol>
            {record.steps.map((step) => (
              <li key={step.auditId}>
                {when(step.at)}: {auditEvents[step.action]?.kind ?? step.action}
                {words.by(step.by)}
              </li>
            ))}
          </ol>
        </>
      ) : null}
      {shown.length > 0 ? (
        <>
          <h3>{words.evidence}</h3>
          <dl>
            {shown.map(([label, value]) => (
              <div key={label}>
                <dt>{label}</dt>
                <dd className="investor-page__hash">{value}</dd>
              </div>
            ))}
          </dl>
        </>
      ) : null}
      {record.files.signed || record.files.outside ? (
        <p>
          <a href={filePath("signed")}>{record.files.outside ? words.outsideFile : words.signedFile}</a>
        </p>
      ) : null}
      {record.files.completed ? (
        <p>
          <a href={filePath("completed")}>{words.completedFile}</a>
        </p>
      ) : null}
    </section>
  );
}

/** An NDA marked completed by hand: said so, with who marked it and when (its audit row), and whether a copy is attached. */
function SignedOutside({ steps, hasFile }: { steps: NdaRecordStep[]; hasFile: boolean }) {
  const marked = steps.findLast((step) => step.action === "nda.recorded_outside");
  return (
    <>
      <p>
        <strong>{words.outside}</strong>
      </p>
      {marked ? <p>{words.outsideBy(marked.by, when(marked.at))}</p> : null}
      {hasFile ? null : <p>{words.outsideNoFile}</p>}
    </>
  );
}
