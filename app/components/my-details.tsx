import { Form } from "@remix-run/react";
import { AddressLines } from "~/components/address-lines";
import { Field, FormErrors } from "~/components/form-field";
import { ADDRESS_MAX_LENGTH, NAME_FIELD_MAX_LENGTH } from "~/content/constants";
import { myDetailsContent, ndaStepsContent } from "~/content/my-details";
import { nameAddressMessages } from "~/content/portal";
import { useLiveValidation } from "~/hooks/use-live-validation";
import type { FormReply } from "~/lib/form-reply";
import { formatRegistrationTime } from "~/lib/investor-table";

type Step = { done: boolean; at: string | null };

/** The NDA's three steps, each done with its date or not yet; the first not done is the current one. */
export function NdaSteps({ steps }: { steps: { details: Step; sent: Step; signed: Step } }) {
  const words = ndaStepsContent;
  const list: [string, Step][] = [
    [words.steps.details, steps.details],
    [words.steps.sent, steps.sent],
    [words.steps.signed, steps.signed],
  ];
  const current = list.findIndex(([, step]) => !step.done);
  return (
    <section className="nda-steps" aria-labelledby="nda-steps-heading">
      <h2 id="nda-steps-heading">{words.heading}</h2>
      <ol className="nda-steps__list" aria-label={words.label}>
        {list.map(([label, step], index) => (
          <li
            key={label}
            className={`nda-steps__step${step.done ? " nda-steps__step--done" : ""}`}
            aria-current={index === current ? "step" : undefined}
          >
            <span className="nda-steps__mark" aria-hidden="true">
              {step.done ? "✓" : index + 1}
            </span>
            <span className="nda-steps__label">{label}</span>
            <span className="nda-steps__when">
              {!step.done ? words.notYet : step.at ? words.doneOn(formatRegistrationTime(step.at)) : words.undated}
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}

/**
 * The name and address as stored, and until the NDA is sent a form to correct them, prefilled. It sits in
 * a disclosure (open after a refused correction), so it works the same without JavaScript.
 */
export function MyDetails({
  details,
  lastResult,
}: {
  details: { fullName: string; address: string; addressLines: string | null; correctable: boolean };
  lastResult: FormReply | undefined;
}) {
  const words = myDetailsContent;
  const { formProps, formErrors, fieldProps } = useLiveValidation("correct-details", lastResult);
  const field = (name: "fullName" | "address") => {
    const props = fieldProps(name);
    return { ...props, defaultValue: props.defaultValue ?? details[name] };
  };
  return (
    <section className="my-details" aria-labelledby="my-details-heading">
      <h2 id="my-details-heading">{words.heading}</h2>
      <p>{words.intro}</p>
      <dl className="my-details__facts">
        <div>
          <dt>{words.fullName}</dt>
          <dd>{details.fullName}</dd>
        </div>
        <div>
          <dt>{words.address}</dt>
          <dd>
            <AddressLines address={details.address} lines={details.addressLines} />
          </dd>
        </div>
      </dl>
      {details.correctable ? (
        <>
          <p>{words.correctable}</p>
          <details className="my-details__correct" open={lastResult ? true : undefined}>
            <summary>{words.correct.summary}</summary>
            <Form method="post" {...formProps}>
              <input type="hidden" name="intent" value="correct" />
              <FormErrors id="correct-details-form-error" errors={formErrors} />
              <Field
                {...field("fullName")}
                label={words.correct.fullName}
                autoComplete="name"
                required
                maxLength={NAME_FIELD_MAX_LENGTH}
                data-missing={nameAddressMessages.fullNameRequired}
              />
              <Field
                {...field("address")}
                label={words.correct.address}
                hint={words.correct.addressHint}
                autoComplete="street-address"
                required
                maxLength={ADDRESS_MAX_LENGTH}
                data-missing={nameAddressMessages.addressRequired}
              />
              <button type="submit" className="button">
                {words.correct.submit}
              </button>
            </Form>
          </details>
        </>
      ) : (
        <p>{words.fixed}</p>
      )}
    </section>
  );
}
