import { useEffect } from "react";
import { REPORT_EVERY_MS } from "./use-reading-report";

/** Media events do not bubble, so the page listens for them on their way down (capture). */
const STOPS = ["pause", "ended"] as const;

/**
 * Reports the parts of the page's video played (the player's own `played` ranges, whole each time) and
 * where it stands: every REPORT_EVERY_MS while it plays, when it pauses or ends, when the tab is hidden
 * and when the viewer leaves, by navigator.sendBeacon. Nothing is sent before anything has played.
 */
export function useWatchReport(url: string) {
  useEffect(() => {
    let video: HTMLVideoElement | null = null;
    let sent = "";
    const report = () => {
      if (!video || video.played.length === 0 || !Number.isFinite(video.duration)) return;
      const ms = (seconds: number) => Math.round(seconds * 1000);
      const ranges: [number, number][] = [];
      for (let i = 0; i < video.played.length; i += 1) {
        const [from, to] = [ms(video.played.start(i)), ms(video.played.end(i))];
        if (to > from) ranges.push([from, to]);
      }
      if (ranges.length === 0) return;
      const durationMs = Math.max(1, ms(video.duration));
      const body = JSON.stringify({ durationMs, stoppedAtMs: Math.min(ms(video.currentTime), durationMs), ranges });
      if (body === sent) return;
      sent = body;
      if (!navigator.sendBeacon?.(url, new Blob([body], { type: "application/json" })))
        void fetch(url, { method: "POST", body, keepalive: true, headers: { "Content-Type": "application/json" } });
    };
    const onPlaying = (event: Event) => {
      if (event.target instanceof HTMLVideoElement) video = event.target;
    };
    const onHidden = () => document.visibilityState === "hidden" && report();
    document.addEventListener("playing", onPlaying, true);
    for (const type of STOPS) document.addEventListener(type, report, true);
    document.addEventListener("visibilitychange", onHidden);
    window.addEventListener("pagehide", report);
    const timer = window.setInterval(report, REPORT_EVERY_MS);
    return () => {
      report();
      window.clearInterval(timer);
      document.removeEventListener("playing", onPlaying, true);
      for (const type of STOPS) document.removeEventListener(type, report, true);
      document.removeEventListener("visibilitychange", onHidden);
      window.removeEventListener("pagehide", report);
    };
  }, [url]);
}
