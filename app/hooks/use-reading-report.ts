import { useEffect, useRef } from "react";
import { PageClock, type PageTime } from "~/lib/page-clock";

/** How often the time counted so far is reported while the reader stays. */
export const REPORT_EVERY_MS = 30_000;

const INPUTS = ["keydown", "pointerdown", "pointermove", "wheel", "scroll", "touchstart"] as const;

/**
 * Reports, for one stamped copy, the time each page is on screen (app/lib/page-clock.ts): in batches every
 * REPORT_EVERY_MS, when the tab is hidden and when the reader leaves, each by navigator.sendBeacon (which
 * outlives the page), numbered so the server takes each once. Nothing is reported before the copy is known.
 */
export function useReadingReport(url: string, copy: { downloadId: string; page: number } | null) {
  const clock = useRef<PageClock | null>(null);
  const downloadId = copy?.downloadId ?? null;

  useEffect(() => {
    if (!downloadId) return;
    const stream = crypto.randomUUID();
    let batch = 0;
    const running = new PageClock(() => Date.now(), document.visibilityState === "visible");
    clock.current = running;
    const report = () => {
      const pages: PageTime[] = running.take();
      if (pages.length === 0) return;
      batch += 1;
      const body = JSON.stringify({ downloadId, stream, batch, pages });
      const blob = new Blob([body], { type: "application/json" });
      if (!navigator.sendBeacon?.(url, blob))
        void fetch(url, { method: "POST", body, keepalive: true, headers: { "Content-Type": "application/json" } });
    };
    const onInput = () => running.input();
    const onVisibility = () => {
      running.visibility(document.visibilityState === "visible");
      if (document.visibilityState === "hidden") report();
    };
    for (const type of INPUTS) window.addEventListener(type, onInput, { passive: true, capture: true });
    document.addEventListener("visibilitychange", onVisibility);
    window.addEventListener("pagehide", report);
    const timer = window.setInterval(report, REPORT_EVERY_MS);
    return () => {
      report();
      window.clearInterval(timer);
      for (const type of INPUTS) window.removeEventListener(type, onInput, { capture: true });
      document.removeEventListener("visibilitychange", onVisibility);
      window.removeEventListener("pagehide", report);
      clock.current = null;
    };
  }, [url, downloadId]);

  const page = copy?.page ?? null;
  useEffect(() => {
    if (page !== null) clock.current?.show(page);
  }, [page, downloadId]);
}
