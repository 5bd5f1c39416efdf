import { Form, useLocation } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { videoAgreement } from "~/content/intro-video";

/** The GET parameters of the agreement form: `?agree=on&view=video`. */
const AGREE_PARAM = "agree";
const VIEW_PARAM = "view";
const VIEW_VALUE = "video";
/** The agreement form and, once agreed, the video take this id; the form's target scrolls to it. */
const STAGE_ID = "video-stage";

export type VideoAgreement = { agreed: boolean; missingAgreement: boolean };

/** Reads the agreement from a page's URL: agreed, or asked to view without agreeing. */
export function readVideoAgreement(url: URL): VideoAgreement {
  const agreed = url.searchParams.get(AGREE_PARAM) === "on";
  const askedToView = url.searchParams.get(VIEW_PARAM) === VIEW_VALUE;
  return { agreed, missingAgreement: askedToView && !agreed };
}

type VideoDisclaimerProps = {
  heading: string;
  disclaimerHeading: string;
  disclaimer: readonly string[];
  video: { src: string; label: string };
  /** WebVTT captions, shown by default where the video has them. */
  captions?: { src: string; label: string; language: string } | null;
  agreement: VideoAgreement;
};

/**
 * A disclaimer, a box to agree to it, and the video that only an agreement
 * shows. The form is a GET form to the page itself, so it works without
 * JavaScript; with it, the same request runs without a reload. Its target
 * names the form's place, so either way the answer (the video, or the message
 * beside the box) is scrolled into view.
 */
export function VideoDisclaimer({
  heading,
  disclaimerHeading,
  disclaimer,
  video,
  captions,
  agreement,
}: VideoDisclaimerProps) {
  const { pathname } = useLocation();
  const { videoRef, checkboxRef } = useFocusOnAnswer(agreement);
  const errorId = "video-agreement-error";

  return (
    <div className="video-page">
      <section className="section video-page__text" aria-labelledby="video-page-heading">
        <h1 id="video-page-heading">{heading}</h1>
        <h2>{disclaimerHeading}</h2>
        {disclaimer.map((paragraph) => (
          <p key={paragraph}>{paragraph}</p>
        ))}
        {agreement.agreed ? null : (
          <Form
            method="get"
            action={`${pathname}#${STAGE_ID}`}
            preventScrollReset
            id={STAGE_ID}
            className="video-agreement"
          >
            {agreement.missingAgreement ? (
              <p id={errorId} className="form-error video-agreement__error" role="alert">
                {videoAgreement.notAgreed}
              </p>
            ) : null}
            <div className="video-agreement__check">
              <input
                ref={checkboxRef}
                type="checkbox"
                id="video-agreement-box"
                name={AGREE_PARAM}
                value="on"
                aria-invalid={agreement.missingAgreement || undefined}
                aria-describedby={agreement.missingAgreement ? errorId : undefined}
              />
              <label htmlFor="video-agreement-box">{videoAgreement.label}</label>
            </div>
            <button type="submit" name={VIEW_PARAM} value={VIEW_VALUE} className="button">
              {videoAgreement.submit}
            </button>
          </Form>
        )}
      </section>
      {agreement.agreed ? (
        <div id={STAGE_ID} className="video-stage">
          {/* Agreeing is the request to watch, so it plays at once; the controls pause it. */}
          {/* The shipped video has no sound track (scripts/make-assets.sh), so there is nothing to caption; a
              library video has the captions the firm uploaded with it, if any. */}
          {/* eslint-disable-next-line jsx-a11y/media-has-caption */}
          <video
            ref={videoRef}
            className="video-stage__video"
            src={video.src}
            aria-label={video.label}
            autoPlay
            loop
            controls
            playsInline
            preload="auto"
          >
            {captions ? (
              <track kind="captions" src={captions.src} label={captions.label} srcLang={captions.language} default />
            ) : null}
          </video>
        </div>
      ) : null}
    </div>
  );
}

/**
 * After a submission without a reload, focus follows the answer: the video,
 * or the box that still needs ticking. A first page load leaves focus alone.
 */
function useFocusOnAnswer({ agreed, missingAgreement }: VideoAgreement) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const checkboxRef = useRef<HTMLInputElement>(null);
  const { key } = useLocation();
  const firstKey = useRef(key);

  useEffect(() => {
    if (key === firstKey.current) return;
    if (agreed) videoRef.current?.focus();
    else if (missingAgreement) checkboxRef.current?.focus();
  }, [key, agreed, missingAgreement]);

  return { videoRef, checkboxRef };
}
