import { investorStepsContent } from "~/content/investor-steps";

const words = investorStepsContent.qualification;

/** The standing verification: by what, when, and until when it stands (or that it expired). */
export function VerificationLine({
  verification,
}: {
  verification: { method: string; verifiedOn: string; expiresAt: string; expired: boolean } | null;
}) {
  if (!verification) return <p>{words.noVerification}</p>;
  const expires = verification.expiresAt.slice(0, 10);
  return (
    <p>
      {words.verifiedOn(
        verification.verifiedOn,
        investorStepsContent.methods[verification.method] ?? verification.method,
      )}{" "}
      <strong>{verification.expired ? words.expired(expires) : words.expires(expires)}</strong>
    </p>
  );
}
