import type { PDFDocumentProxy } from "pdfjs-dist";
import { type FormEvent, type KeyboardEvent, useCallback, useEffect, useRef, useState } from "react";
import { viewerText } from "~/content/reading";
import { useReadingReport } from "~/hooks/use-reading-report";
import { PDF_WORKER_PATH } from "~/lib/pdf-worker-path";

const ZOOMS = [0.5, 0.75, 1, 1.25, 1.5, 2, 3];
const FIT = 2; // ZOOMS[FIT] is the page at the viewer's width

type Loaded = { status: "loading" } | { status: "failed"; message: string } | { status: "ready"; pages: number };

/**
 * The investor's stamped copy in the page, drawn by Mozilla's pdf.js (loaded by this component only, its
 * worker served by the app): one page at a time at the viewer's width, zoom, page navigation by buttons,
 * number and keys, each page's text beside its picture for screen readers. The copy is fetched once, so it
 * is one delivery on record, and its download id (X-Download-Id) names the copy its reading is reported for.
 */
export function PdfViewer({
  fileHref,
  readingHref,
  title,
  downloadable,
}: {
  fileHref: string;
  readingHref: string;
  title: string;
  downloadable: boolean;
}) {
  const [loaded, setLoaded] = useState<Loaded>({ status: "loading" });
  const [downloadId, setDownloadId] = useState<string | null>(null);
  const [page, setPage] = useState(1);
  const [zoom, setZoom] = useState(FIT);
  const [pageText, setPageText] = useState("");
  const [typed, setTyped] = useState("1");
  const pdf = useRef<PDFDocumentProxy | null>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const frame = useRef<HTMLDivElement>(null);
  const pages = loaded.status === "ready" ? loaded.pages : 0;

  useReadingReport(readingHref, downloadId && pages > 0 ? { downloadId, page } : null);

  useEffect(() => {
    const abort = new AbortController();
    void (async () => {
      try {
        const pdfjs = await import("pdfjs-dist");
        pdfjs.GlobalWorkerOptions.workerSrc = PDF_WORKER_PATH;
        const response = await fetch(fileHref, { signal: abort.signal, credentials: "same-origin" });
        if (!response.ok) throw new Error((await response.text()) || viewerText.failed);
        const data = new Uint8Array(await response.arrayBuffer());
        const document = await pdfjs.getDocument({ data }).promise;
        if (abort.signal.aborted) return void document.loadingTask.destroy();
        pdf.current = document;
        setDownloadId(response.headers.get("X-Download-Id"));
        setLoaded({ status: "ready", pages: document.numPages });
      } catch (error) {
        if (!abort.signal.aborted)
          setLoaded({ status: "failed", message: error instanceof Error ? error.message : viewerText.failed });
      }
    })();
    return () => {
      abort.abort();
      void pdf.current?.loadingTask.destroy();
      pdf.current = null;
    };
  }, [fileHref]);

  useEffect(() => {
    const document = pdf.current;
    const target = canvas.current;
    if (loaded.status !== "ready" || !document || !target) return;
    let cancelled = false;
    let task: { cancel(): void; promise: Promise<void> } | null = null;
    void (async () => {
      const pdfPage = await document.getPage(page);
      if (cancelled) return;
      const natural = pdfPage.getViewport({ scale: 1 });
      const width = frame.current?.clientWidth || natural.width;
      const viewport = pdfPage.getViewport({ scale: (width / natural.width) * ZOOMS[zoom] });
      const ratio = window.devicePixelRatio || 1;
      target.width = Math.floor(viewport.width * ratio);
      target.height = Math.floor(viewport.height * ratio);
      target.style.width = `${Math.floor(viewport.width)}px`;
      target.style.height = `${Math.floor(viewport.height)}px`;
      task = pdfPage.render({
        canvas: target,
        viewport,
        transform: ratio === 1 ? undefined : [ratio, 0, 0, ratio, 0, 0],
      });
      const text = await pdfPage.getTextContent();
      if (!cancelled) setPageText(text.items.map((item) => ("str" in item ? item.str : "")).join(" "));
      await task.promise.catch(() => undefined);
    })();
    return () => {
      cancelled = true;
      task?.cancel();
    };
  }, [loaded.status, page, zoom]);

  const goTo = useCallback(
    (next: number) => {
      if (pages === 0) return;
      const clamped = Math.min(Math.max(1, next), pages);
      setPage(clamped);
      setTyped(String(clamped));
    },
    [pages],
  );

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const action: Record<string, () => void> = {
      ArrowRight: () => goTo(page + 1),
      PageDown: () => goTo(page + 1),
      ArrowLeft: () => goTo(page - 1),
      PageUp: () => goTo(page - 1),
      Home: () => goTo(1),
      End: () => goTo(pages),
      "+": () => setZoom((z) => Math.min(ZOOMS.length - 1, z + 1)),
      "=": () => setZoom((z) => Math.min(ZOOMS.length - 1, z + 1)),
      "-": () => setZoom((z) => Math.max(0, z - 1)),
    };
    const run = action[event.key];
    if (!run || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    run();
  };

  const onGo = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const wanted = Number.parseInt(typed, 10);
    if (Number.isFinite(wanted)) goTo(wanted);
    else setTyped(String(page));
  };

  if (loaded.status === "failed")
    return (
      <p role="alert" className="pdf-viewer__status">
        {loaded.message}
      </p>
    );

  const label = viewerText.pageLabel(page, pages);
  return (
    <div className="pdf-viewer">
      <div role="toolbar" aria-label={viewerText.toolbarLabel} className="pdf-viewer__toolbar">
        <button type="button" onClick={() => goTo(page - 1)} disabled={page <= 1 || pages === 0}>
          {viewerText.previous}
        </button>
        <form onSubmit={onGo} className="pdf-viewer__goto">
          <label>
            <span className="visually-hidden">{viewerText.pageNumber}</span>
            <input
              type="number"
              inputMode="numeric"
              min={1}
              max={pages || 1}
              value={typed}
              onChange={(event) => setTyped(event.target.value)}
              disabled={pages === 0}
            />
          </label>
          <span>{viewerText.of(pages)}</span>
          <button type="submit" disabled={pages === 0}>
            {viewerText.go}
          </button>
        </form>
        <button type="button" onClick={() => goTo(page + 1)} disabled={page >= pages}>
          {viewerText.next}
        </button>
        <button type="button" onClick={() => setZoom((z) => Math.max(0, z - 1))} disabled={zoom === 0}>
          {viewerText.zoomOut}
        </button>
        <button type="button" onClick={() => setZoom(FIT)} disabled={zoom === FIT}>
          {viewerText.fitWidth}
        </button>
        <button
          type="button"
          onClick={() => setZoom((z) => Math.min(ZOOMS.length - 1, z + 1))}
          disabled={zoom === ZOOMS.length - 1}
        >
          {viewerText.zoomIn}
        </button>
        <span className="pdf-viewer__zoom">{viewerText.zoomLevel(Math.round(ZOOMS[zoom] * 100))}</span>
        {downloadable ? (
          <a href={fileHref} download className="pdf-viewer__download">
            {viewerText.download}
          </a>
        ) : null}
      </div>
      <p className="visually-hidden" aria-live="polite">
        {pages > 0 ? label : viewerText.loading}
      </p>
      <p id="pdf-viewer-keys" className="visually-hidden">
        {viewerText.keyboardHelp}
      </p>
      {/* A scrollable region takes the focus, so a keyboard reaches and scrolls it; its keys turn the page. */}
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions */}
      <div
        ref={frame}
        className="pdf-viewer__frame"
        role="region"
        aria-label={`${title}: ${pages > 0 ? label : viewerText.loading}`}
        aria-describedby="pdf-viewer-keys"
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
        tabIndex={0}
        onKeyDown={onKeyDown}
      >
        {pages === 0 ? <p className="pdf-viewer__status">{viewerText.loading}</p> : null}
        <canvas ref={canvas} role="img" aria-label={label} hidden={pages === 0} data-page={page} />
        <div className="visually-hidden" aria-label={viewerText.pageText(page)} role="document">
          {pageText}
        </div>
      </div>
    </div>
  );
}
