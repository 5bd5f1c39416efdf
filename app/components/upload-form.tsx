import { useRef, useState, type FormEvent, type ReactNode } from "react";
import { FormErrors } from "~/components/form-field";
import { libraryContent } from "~/content/library";
import { useHydrated } from "~/hooks/use-hydrated";
import { formatFileSize } from "~/lib/file-size";
import type { FormReply } from "~/lib/form-reply";
import { MATERIAL_LIMITS } from "~/lib/material-limits";

const words = libraryContent.upload;

type Sending = { percent: number; sent: boolean } | null;

/** The limit the chosen file must keep to, judged by its name and type (the server judges it by its bytes). */
function sizeProblem(form: HTMLFormElement): string | null {
  const file = (form.elements.namedItem("file") as HTMLInputElement | null)?.files?.[0];
  const captions = (form.elements.namedItem("captions") as HTMLInputElement | null)?.files?.[0];
  if (captions && captions.size > MATERIAL_LIMITS.captions)
    return libraryContent.errors.fileTooLarge(formatFileSize(MATERIAL_LIMITS.captions));
  if (!file) return null;
  const isPdf = file.type === "application/pdf" || file.name.toLowerCase().endsWith(".pdf");
  const limit = isPdf ? MATERIAL_LIMITS.pdf : MATERIAL_LIMITS.video;
  return file.size > limit ? libraryContent.errors.fileTooLarge(formatFileSize(limit)) : null;
}

/** Every message of a refused form, for the form's own alert (the fields' slots are the plain post's). */
function messagesOf(body: unknown): string[] {
  const reply = (body as { reply?: FormReply } | null)?.reply;
  const messages = reply ? Object.values(reply.error).flat() : [];
  return messages.length > 0 ? [...new Set(messages)] : [words.failed];
}

/**
 * A multipart upload form. Without JavaScript it simply posts. With it, the same form data goes by
 * XMLHttpRequest (fetch reports no upload progress) to the same address as a Remix data request: a
 * progress bar shows how much is sent, Cancel aborts (the server then keeps nothing), a refusal is said
 * above the button, and success follows the action's redirect with a full load, so its notice shows.
 */
export function UploadForm({
  action,
  routeId,
  submitLabel,
  children,
}: {
  action: string;
  routeId: string;
  submitLabel: string;
  children: ReactNode;
}) {
  const hydrated = useHydrated();
  const request = useRef<XMLHttpRequest | null>(null);
  const [sending, setSending] = useState<Sending>(null);
  const [problems, setProblems] = useState<string[] | undefined>(undefined);

  function submit(event: FormEvent<HTMLFormElement>) {
    if (!hydrated) return;
    event.preventDefault();
    const form = event.currentTarget;
    const tooLarge = sizeProblem(form);
    if (tooLarge) return setProblems([tooLarge]);
    const xhr = new XMLHttpRequest();
    request.current = xhr;
    const url = new URL(action, window.location.href);
    url.searchParams.set("_data", routeId);
    xhr.open("POST", url);
    xhr.upload.onprogress = (progress) => {
      if (progress.lengthComputable)
        setSending({ percent: Math.floor((progress.loaded * 100) / progress.total), sent: false });
    };
    xhr.upload.onload = () => setSending({ percent: 100, sent: true });
    xhr.onload = () => {
      request.current = null;
      const redirect = xhr.getResponseHeader("X-Remix-Redirect");
      if (redirect) return window.location.assign(redirect);
      setSending(null);
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        // Not the action's JSON (a proxy's page, a refusal in text): said in general words.
      }
      setProblems(messagesOf(body));
    };
    xhr.onerror = () => {
      request.current = null;
      setSending(null);
      setProblems([words.failed]);
    };
    xhr.onabort = () => {
      request.current = null;
      setSending(null);
      setProblems([words.cancelled]);
    };
    setProblems(undefined);
    setSending({ percent: 0, sent: false });
    xhr.send(new FormData(form));
  }

  const shown = sending ? Math.floor(sending.percent / 10) * 10 : 0;
  return (
    <form method="post" encType="multipart/form-data" action={action} onSubmit={submit} className="library__form">
      {children}
      <FormErrors id="upload-error" errors={problems} />
      <div className="library__progress">
        {sending ? <progress max={100} value={sending.percent} aria-label={words.progress} /> : null}
        <p aria-live="polite">{sending ? (sending.sent ? words.processing : words.percent(shown)) : ""}</p>
      </div>
      <p className="library__buttons">
        <button type="submit" className="button" disabled={sending !== null}>
          {submitLabel}
        </button>
        {sending && !sending.sent ? (
          <button type="button" className="button button--secondary" onClick={() => request.current?.abort()}>
            {words.cancel}
          </button>
        ) : null}
      </p>
    </form>
  );
}
