import { Field, FormErrors } from "~/components/form-field";
import { DESCRIPTION_MAX_LENGTH, TITLE_MAX_LENGTH, libraryContent } from "~/content/library";
import type { FormReply } from "~/lib/form-reply";
import { formatRegistrationTime } from "~/lib/investor-table";
import styles from "~/styles/library.css";

const words = libraryContent;

export const libraryLinks = () => [{ rel: "stylesheet", href: styles }];

/** A stored time (milliseconds) as the administrator's pages say times. */
export const whenInWords = (at: number) => formatRegistrationTime(new Date(at).toISOString());

export function audienceInWords(audience: "signed" | "chosen", chosenCount: number) {
  return audience === "signed" ? words.audienceSummary.signed : words.audienceSummary.chosen(chosenCount);
}

/** The values and messages a refused form puts back, or the stored values. */
export function formState(reply: FormReply | undefined, stored: Record<string, string> = {}) {
  return {
    value: (name: string) => reply?.initialValue[name] ?? stored[name] ?? "",
    errors: (name: string) => reply?.error[name],
  };
}

type State = ReturnType<typeof formState>;

/** A document's title and description. */
export function DetailsFields({ state, idPrefix }: { state: State; idPrefix: string }) {
  return (
    <>
      <Field
        id={`${idPrefix}-title`}
        name="title"
        label={words.fields.title}
        hint={words.fields.titleHint}
        defaultValue={state.value("title")}
        errors={state.errors("title")}
        maxLength={TITLE_MAX_LENGTH}
        autoComplete="off"
        required
      />
      <Field
        id={`${idPrefix}-description`}
        name="description"
        label={words.fields.description}
        hint={words.fields.descriptionHint}
        defaultValue={state.value("description")}
        errors={state.errors("description")}
        maxLength={DESCRIPTION_MAX_LENGTH}
        multiline
        rows={3}
      />
    </>
  );
}

/** Who may open the document: every investor whose NDA is signed, or the investors listed by address. */
export function AudienceFields({ state, idPrefix }: { state: State; idPrefix: string }) {
  const audience = state.value("audience") === "chosen" ? "chosen" : "signed";
  const audienceErrors = state.errors("audience");
  return (
    <>
      <fieldset
        className="library__audience"
        aria-describedby={audienceErrors ? `${idPrefix}-audience-error` : undefined}
      >
        <legend>{words.fields.audience}</legend>
        <label>
          <input type="radio" name="audience" value="signed" defaultChecked={audience === "signed"} />
          {words.fields.audienceSigned}
        </label>
        <label>
          <input type="radio" name="audience" value="chosen" defaultChecked={audience === "chosen"} />
          {words.fields.audienceChosen}
        </label>
        {audienceErrors ? (
          <p id={`${idPrefix}-audience-error`} className="field__error">
            {audienceErrors.join(" ")}
          </p>
        ) : null}
      </fieldset>
      <Field
        id={`${idPrefix}-chosen`}
        name="chosen"
        label={words.fields.chosen}
        hint={words.fields.chosenHint}
        defaultValue={state.value("chosen")}
        errors={state.errors("chosen")}
        multiline
        rows={4}
        autoComplete="off"
        spellCheck={false}
      />
    </>
  );
}

/** The file, and for a video its captions. */
export function FileFields({ state, idPrefix, kind }: { state: State; idPrefix: string; kind?: "pdf" | "video" }) {
  const accept =
    kind === "pdf"
      ? "application/pdf,.pdf"
      : kind === "video"
        ? "video/mp4,.mp4"
        : "application/pdf,.pdf,video/mp4,.mp4";
  return (
    <>
      <Field
        id={`${idPrefix}-file`}
        name="file"
        type="file"
        label={words.fields.file}
        hint={kind ? words.document.kindOnly[kind] : words.fields.fileHint}
        errors={state.errors("file")}
        accept={accept}
        required
      />
      {kind === "pdf" ? null : (
        <Field
          id={`${idPrefix}-captions`}
          name="captions"
          type="file"
          label={words.fields.captions}
          hint={words.fields.captionsHint}
          errors={state.errors("captions")}
          accept="text/vtt,.vtt"
        />
      )}
    </>
  );
}

/** The messages about a refused form as a whole. */
export function FormLevel({ reply, id = "form-error" }: { reply: FormReply | undefined; id?: string }) {
  return <FormErrors id={id} errors={reply?.error[""]} />;
}
