import { useEffect, useRef, useState, type FormEvent } from "react";
import type { FormReply } from "~/lib/form-reply";

type Control = HTMLInputElement | HTMLTextAreaElement;
type Errors = Record<string, string[] | undefined>;

/** What a form field needs from the form: its ids, its messages and the value the reply gave back. */
export type BoundField = { id: string; name: string; errors?: string[]; defaultValue?: string };

/**
 * The message for a field's value under the rules its markup states, in the
 * words of its data-* attributes: `required` (data-missing; data-or names
 * fields any of which may be filled instead; spaces fill no text field),
 * `type=email` (data-invalid), `minlength` (data-short) and data-match, the
 * field it must equal (data-mismatch). The server renders both, so the rules
 * live in one place; what markup cannot say (common passwords, control
 * characters) is the action's to refuse.
 */
function fieldMessage(control: Control): string | undefined {
  const { validity, value, dataset: words } = control;
  const named = (name: string) => control.form?.elements.namedItem(name) as Control | null;
  if (control.required && !filled(control) && !words.or?.split(" ").some((name) => filled(named(name)))) {
    return words.missing;
  }
  if (words.match && value !== named(words.match)?.value) return words.mismatch;
  if (validity.typeMismatch) return words.invalid;
  if (value && value.length < control.minLength) return words.short;
}

/** Spaces alone fill no text field (the schemas trim), but they are a password. */
function filled(control: Control | null) {
  return !!control && (control.type === "password" ? control.value : control.value.trim()) !== "";
}

function controlsOf(form: HTMLFormElement | null) {
  return [...(form?.elements ?? [])].filter(
    (element): element is Control =>
      (element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement) &&
      !!element.name &&
      element.willValidate,
  );
}

/**
 * A page form's messages: the action's reply (with or without JavaScript),
 * then, with JavaScript, each field checked in the browser as it is left
 * (`checkOn: "blur"`) or once the form is first sent (`"submit"`), and again
 * at every keystroke after that. A form that fails the check is not sent and
 * its first invalid field takes focus, as after a refusing reply; a reply
 * also empties the password fields, as a page reload does without JavaScript.
 */
export function useLiveValidation(formId: string, reply: FormReply | undefined, checkOn: "blur" | "submit" = "blur") {
  const form = useRef<HTMLFormElement>(null);
  const checked = useRef(new Set<string>());
  const [shown, setShown] = useState<{ reply?: FormReply; errors: Errors }>({ reply, errors: reply?.error ?? {} });
  if (shown.reply !== reply) setShown({ reply, errors: reply?.error ?? {} });

  useEffect(() => {
    if (!reply) return;
    const controls = controlsOf(form.current);
    for (const control of controls) {
      checked.current.add(control.name);
      if (control.type === "password") control.value = "";
    }
    controls.find((control) => reply.error[control.name])?.focus();
  }, [reply]);

  /** Replaces the messages of `controls` (and, when sending, the form's own) with the browser's check. */
  const show = (controls: Control[], sending = false) =>
    setShown(({ reply, errors }) => {
      const next = sending ? {} : { ...errors };
      for (const control of controls) {
        const message = fieldMessage(control);
        next[control.name] = message ? [message] : undefined;
      }
      return { reply, errors: next };
    });
  /** Checks again the field an event came from, and the checked fields whose rules name it. */
  const recheck = ({ target }: { target: EventTarget }) => {
    const { name } = target as Control;
    show(
      controlsOf(form.current).filter(
        ({ name: other, dataset }) =>
          checked.current.has(other) && (other === name || `${dataset.match} ${dataset.or}`.split(" ").includes(name)),
      ),
    );
  };

  return {
    formErrors: shown.errors[""],
    formProps: {
      id: formId,
      ref: form,
      noValidate: true,
      onBlur:
        checkOn === "blur"
          ? (event: { target: EventTarget }) => {
              checked.current.add((event.target as Control).name);
              recheck(event);
            }
          : undefined,
      onInput: recheck,
      onReset: () => {
        checked.current.clear();
        setShown(({ reply }) => ({ reply, errors: {} }));
      },
      onSubmit: (event: FormEvent<HTMLFormElement>) => {
        const controls = controlsOf(event.currentTarget);
        for (const control of controls) checked.current.add(control.name);
        show(controls, true);
        const invalid = controls.find(fieldMessage);
        if (invalid) {
          event.preventDefault();
          invalid.focus();
        }
      },
    },
    fieldProps: (name: string): BoundField => ({
      id: `${formId}-${name}`,
      name,
      errors: shown.errors[name],
      defaultValue: reply?.initialValue[name],
    }),
  };
}
