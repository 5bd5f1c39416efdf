import { Link } from "@remix-run/react";
import { insightsContent } from "~/content/reading-insights";
import { PageTimeChart } from "./page-time-chart";
import { ReadingTable } from "./reading-table";

type DocumentTime = {
  readers: number;
  medianMs: number;
  shareSeen: number;
  byPage: { page: number; readers: number; meanMs: number }[];
};

/** A document's reading time in the viewer: the summary, the chart, and the same page by page in a table. */
export function DocumentReadingTime({ time }: { time: DocumentTime }) {
  const words = insightsContent.document;
  return (
    <section aria-labelledby="document-time-heading" className="reading-time">
      <h2 id="document-time-heading">{words.heading}</h2>
      {time.readers === 0 ? (
        <p>{words.none}</p>
      ) : (
        <>
          <p>{words.summary(time.readers, time.medianMs, time.shareSeen)}</p>
          <PageTimeChart byPage={time.byPage} readers={time.readers} />
          <ReadingTable
            caption={words.caption}
            columns={Object.values(words.columns)}
            rows={time.byPage.map((page) => ({
              key: String(page.page),
              cells: [
                { value: page.page, number: true },
                { value: page.readers, number: true },
                { value: insightsContent.percent(page.readers / time.readers), number: true },
                { value: insightsContent.seconds(page.meanMs), number: true },
              ],
            }))}
          />
        </>
      )}
    </section>
  );
}

/** A video's watching: the median share played, and where viewers last stopped. */
export function VideoWatchingTime({
  watching,
}: {
  watching: { viewers: number; medianShare: number; stoppedIn: number[] };
}) {
  const words = insightsContent.video;
  return (
    <section aria-labelledby="video-watching-heading" className="reading-time">
      <h2 id="video-watching-heading">{words.heading}</h2>
      {watching.viewers === 0 ? (
        <p>{words.none}</p>
      ) : (
        <>
          <p>{words.summary(watching.viewers, watching.medianShare)}</p>
          <ReadingTable
            caption={words.caption}
            columns={Object.values(words.columns)}
            rows={watching.stoppedIn.map((viewers, tenth) => ({
              key: String(tenth),
              cells: [{ value: words.part(tenth) }, { value: viewers, number: true }],
            }))}
          />
        </>
      )}
    </section>
  );
}

type InvestorReading = {
  documentId: string;
  title: string;
  kind: "pdf" | "video";
  ms: number;
  pagesSeen: number | null;
  pages: number | null;
};

/** One investor's time per document, on their page. */
export function InvestorReadingTime({ readings }: { readings: InvestorReading[] }) {
  const words = insightsContent.investor;
  return (
    <section aria-labelledby="investor-time-heading" className="reading-time">
      <h2 id="investor-time-heading">{words.heading}</h2>
      {readings.length === 0 ? (
        <p>{words.empty}</p>
      ) : (
        <ReadingTable
          caption={words.caption}
          columns={Object.values(words.columns)}
          rows={readings.map((reading) => ({
            key: reading.documentId,
            cells: [
              { value: <Link to={`/financing/library/reading/${reading.documentId}`}>{reading.title}</Link> },
              { value: insightsContent.minutes(reading.ms), number: true },
              {
                value: reading.pagesSeen === null ? words.video : words.pagesSeen(reading.pagesSeen, reading.pages),
                number: reading.pagesSeen !== null,
              },
            ],
          }))}
        />
      )}
    </section>
  );
}
