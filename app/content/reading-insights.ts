/** Points a document read adds to an investor's engagement score, beside one point per minute on pages. */
export const POINTS_PER_DOCUMENT = 3;

const minutes = (ms: number) => `${(ms / 60_000).toFixed(1)} min`;
const percent = (share: number) => `${Math.round(share * 100)}%`;

/** The administrators' view of how the materials are read: a document's time, an investor's, the ranking. */
export const insightsContent = {
  minutes,
  percent,
  seconds: (ms: number) => `${(ms / 1000).toFixed(1)} s`,
  document: {
    heading: "Time in the document",
    none: "Nobody has read this document in the page's viewer yet.",
    summary: (readers: number, medianMs: number, shareSeen: number) =>
      `${readers} ${readers === 1 ? "reader" : "readers"} in the viewer; median reading time ${minutes(medianMs)}; the median reader saw ${percent(shareSeen)} of the pages.`,
    chartTitle: "Time and drop-off, page by page",
    chartDescription: (pages: number) =>
      `Bars: the readers' mean time on each of the ${pages} pages. Line: the share of readers who reached the page.`,
    legendTime: "Mean time on the page",
    legendReached: "Readers who reached it",
    caption: "Each page: readers who reached it and their mean time on it",
    columns: { page: "Page", readers: "Readers who reached it", share: "Share of readers", mean: "Mean time" },
  },
  video: {
    heading: "Watching",
    none: "Nobody has played this video yet.",
    summary: (viewers: number, medianShare: number) =>
      `${viewers} ${viewers === 1 ? "viewer" : "viewers"}; the median viewer watched ${percent(medianShare)} of it.`,
    caption: "Where viewers last stopped, by tenth of the video",
    columns: { part: "Part of the video", viewers: "Viewers who stopped there" },
    part: (tenth: number) => `${tenth * 10}% to ${(tenth + 1) * 10}%`,
  },
  investor: {
    heading: "Time in the materials",
    caption: "Time per document read in the viewer or watched, in the library's order",
    empty: "This investor has not read a document in the viewer, nor watched a video, yet.",
    columns: { title: "Document", time: "Time", pages: "Pages seen" },
    pagesSeen: (seen: number, pages: number | null) => (pages ? `${seen} of ${pages}` : String(seen)),
    video: "Video",
  },
  engagement: {
    title: "Engagement",
    description: "The investors ranked by how much they read of the materials over a period.",
    heading: "Engagement of investors",
    formula: `Score = minutes on pages in the viewer + ${POINTS_PER_DOCUMENT} × documents read (at least one page on screen), counting the copies delivered in the period.`,
    formulaLabel: "How the score is made",
    from: "From",
    to: "To (inclusive)",
    show: "Show",
    caption: (from: string, to: string) => `Investors by engagement, copies delivered ${from} to ${to}`,
    empty: "No investor read a copy delivered in this period.",
    columns: {
      rank: "Rank",
      name: "Full name",
      email: "E-mail",
      minutes: "Minutes on pages",
      documents: "Documents read",
      score: "Score",
    },
    csv: "Download CSV",
    csvFileName: "engagement.csv",
    csvHeader: ["Rank", "Full name", "E-mail", "Minutes on pages", "Documents read", "Score"],
    badPeriod: "The period must be two dates (YYYY-MM-DD), the first not after the second, at most two years apart.",
    link: "Engagement ranking",
  },
} as const;
