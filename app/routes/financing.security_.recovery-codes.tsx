import type { LinksFunction, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { AuthCard } from "~/components/auth-form";
import { FormErrors } from "~/components/form-field";
import { RecoveryCodes } from "~/components/recovery-codes";
import { recoveryCodesPrompt } from "~/content/recovery-codes";
import { pageMeta } from "~/lib/meta";
import securityStyles from "~/styles/security.css";
import { action, loader } from "./financing.security_.recovery-codes.server";

export { action, loader };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: securityStyles }];

export const meta: MetaFunction = () => pageMeta(recoveryCodesPrompt.title, recoveryCodesPrompt.description);

/**
 * The recovery codes' own page: the sign-in's offer to make a first set, the set once made, and a set
 * shown again when "Continue" came without "I have saved these codes".
 */
export default function RecoveryCodesPage() {
  const { offer, fresh } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();

  if (answer?.codes) {
    return (
      <div className="auth-page">
        <AuthCard heading={recoveryCodesPrompt.heading}>
          <RecoveryCodes codes={answer.codes} continueTo={answer.continueTo} errors={answer.errors ?? undefined} />
        </AuthCard>
      </div>
    );
  }

  return (
    <div className="auth-page">
      <AuthCard heading={recoveryCodesPrompt.heading}>
        <FormErrors id="recovery-codes-prompt-error" errors={answer?.errors ?? undefined} />
        {offer && fresh ? (
          <>
            <p>{recoveryCodesPrompt.intro}</p>
            <Form method="post" className="security-form">
              <input type="hidden" name="intent" value="issue" />
              <button type="submit" className="button">
                {recoveryCodesPrompt.make}
              </button>
            </Form>
            <p className="auth-links">
              <Link to="/financing">{recoveryCodesPrompt.later}</Link>
            </p>
          </>
        ) : (
          <>
            <p>{offer ? recoveryCodesPrompt.stale : recoveryCodesPrompt.already}</p>
            <p className="auth-links">
              <Link to="/financing/security">{recoveryCodesPrompt.toSecurity}</Link>{" "}
              <Link to="/financing">{recoveryCodesPrompt.toPortal}</Link>
            </p>
          </>
        )}
      </AuthCard>
    </div>
  );
}
