import { useEffect, useRef, useState, type ReactNode } from "react";
import { LANDING_VIDEO_BREAKPOINT_PX } from "~/content/constants";

type Poster = { src: string; width: number; height: number };

type HeroVideoProps = {
  headingId: string;
  posters: { wide: Poster; narrow: Poster };
  video: { src: string };
  labels: { pause: string; play: string };
  children: ReactNode;
};

/** Where the video may play at all: wide enough, and motion welcome. */
const VIDEO_MEDIA_QUERY = `(min-width: ${LANDING_VIDEO_BREAKPOINT_PX}px) and (prefers-reduced-motion: no-preference)`;
const NARROW_MEDIA_QUERY = `(max-width: ${LANDING_VIDEO_BREAKPOINT_PX - 0.02}px)`;

// React 18 knows only the lowercase attribute; the typings know only the camelCase one.
const highFetchPriority = { fetchpriority: "high" } as Record<string, string>;

/**
 * The landing page's full-screen hero. The poster is a real <img> (the page's
 * largest paint) and is all the server renders. After hydration, on screens of
 * LANDING_VIDEO_BREAKPOINT_PX and wider and without a reduced-motion preference,
 * a muted looping video is added over it: a spinner shows until it can play,
 * then it fades in, with a pause button beside it.
 *
 * Without JavaScript there is no video at all, only the poster: the width and
 * reduced-motion rules need script to be kept (a narrow screen must not even
 * download the video), and moving content needs a way to pause it (WCAG 2.2.2),
 * which for a background video is this button; native controls on a backdrop
 * would be clutter, not a hero.
 */
export function HeroVideo({ headingId, posters, video, labels, children }: HeroVideoProps) {
  const videoWanted = useMediaQuery(VIDEO_MEDIA_QUERY);
  return (
    <section className="hero" aria-labelledby={headingId}>
      <div className="hero__content">{children}</div>
      <picture className="hero__picture">
        <source
          media={NARROW_MEDIA_QUERY}
          srcSet={posters.narrow.src}
          width={posters.narrow.width}
          height={posters.narrow.height}
          type="image/webp"
        />
        <img
          className="hero__poster"
          src={posters.wide.src}
          width={posters.wide.width}
          height={posters.wide.height}
          alt=""
          {...highFetchPriority}
        />
      </picture>
      {videoWanted ? <BackgroundVideo src={video.src} poster={posters.wide.src} labels={labels} /> : null}
    </section>
  );
}

type LoadState = "loading" | "ready" | "failed";

function BackgroundVideo({ src, poster, labels }: { src: string; poster: string; labels: HeroVideoProps["labels"] }) {
  const ref = useRef<HTMLVideoElement>(null);
  const [loadState, setLoadState] = useState<LoadState>("loading");
  // Autoplay is asked for; the media events below correct this if the browser refuses.
  const [paused, setPaused] = useState(false);
  const syncPaused = () => setPaused(ref.current?.paused ?? true);

  function togglePlayback() {
    const element = ref.current;
    if (!element) return;
    if (element.paused) element.play().catch(syncPaused);
    else element.pause();
  }

  if (loadState === "failed") return null;
  return (
    <>
      <video
        ref={ref}
        className={`hero__video${loadState === "ready" ? " hero__video--ready" : ""}`}
        src={src}
        poster={poster}
        muted
        autoPlay
        loop
        playsInline
        preload="auto"
        aria-hidden="true"
        tabIndex={-1}
        onCanPlay={() => {
          setLoadState("ready");
          syncPaused();
        }}
        onPlay={syncPaused}
        onPause={syncPaused}
        onError={() => setLoadState("failed")}
      />
      {loadState === "loading" ? <span className="hero__spinner" aria-hidden="true" /> : null}
      <button type="button" className="hero__toggle" onClick={togglePlayback}>
        <PlaybackIcon paused={paused} />
        {paused ? labels.play : labels.pause}
      </button>
    </>
  );
}

function PlaybackIcon({ paused }: { paused: boolean }) {
  return (
    <svg aria-hidden="true" focusable="false" width="16" height="16" viewBox="0 0 16 16">
      {paused ? (
        <path d="M4 2.5v11l9.5-5.5z" fill="currentColor" />
      ) : (
        <path d="M3.5 2.5h3v11h-3zM9.5 2.5h3v11h-3z" fill="currentColor" />
      )}
    </svg>
  );
}

/** Whether a media query matches; false on the server and before hydration. */
function useMediaQuery(query: string) {
  const [matches, setMatches] = useState(false);
  useEffect(() => {
    const list = window.matchMedia(query);
    const update = () => setMatches(list.matches);
    update();
    list.addEventListener("change", update);
    return () => list.removeEventListener("change", update);
  }, [query]);
  return matches;
}
