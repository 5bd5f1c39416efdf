import { insightsContent } from "~/content/reading-insights";

const words = insightsContent.document;

type PageStat = { page: number; readers: number; meanMs: number };
const [WIDTH, HEIGHT] = [640, 240];
const PAD = { left: 48, right: 48, top: 16, bottom: 32 };

/**
 * A document's time and drop-off, page by page, as SVG drawn with the page (no script, and it prints):
 * a bar per page for its readers' mean time on it, and a line for the share of readers who reached it.
 * The table beside it says the same in words.
 */
export function PageTimeChart({ byPage, readers }: { byPage: readonly PageStat[]; readers: number }) {
  const plotWidth = WIDTH - PAD.left - PAD.right;
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const slot = plotWidth / Math.max(1, byPage.length);
  const longest = Math.max(1, ...byPage.map((page) => page.meanMs));
  const x = (index: number) => PAD.left + slot * index + slot / 2;
  const y = (share: number) => PAD.top + plotHeight * (1 - share);
  const line = byPage.map((page, index) => `${x(index)},${y(readers ? page.readers / readers : 0)}`).join(" ");
  const labelEvery = Math.ceil(byPage.length / 20);
  return (
    <figure className="page-time-chart">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-labelledby="page-time-chart-title page-time-chart-desc"
        xmlns="http://www.w3.org/2000/svg"
      >
        <title id="page-time-chart-title">{words.chartTitle}</title>
        <desc id="page-time-chart-desc">{words.chartDescription(byPage.length)}</desc>
        <line x1={PAD.left} y1={y(0)} x2={WIDTH - PAD.right} y2={y(0)} stroke="#555" />
        <text x={PAD.left - 6} y={y(1) + 4} textAnchor="end" fontSize="11">
          {insightsContent.seconds(longest)}
        </text>
        <text x={WIDTH - PAD.right + 6} y={y(1) + 4} fontSize="11">
          100%
        </text>
        <text x={WIDTH - PAD.right + 6} y={y(0)} fontSize="11">
          0%
        </text>
        {byPage.map((page, index) => {
          const height = (page.meanMs / longest) * plotHeight;
          return (
            <g key={page.page}>
              <rect x={x(index) - slot * 0.35} y={y(0) - height} width={slot * 0.7} height={height} fill="#4a6fa5" />
              {index % labelEvery === 0 ? (
                <text x={x(index)} y={HEIGHT - PAD.bottom + 16} textAnchor="middle" fontSize="11">
                  {page.page}
                </text>
              ) : null}
            </g>
          );
        })}
        <polyline points={line} fill="none" stroke="#b3261e" strokeWidth="2" />
        {byPage.map((page, index) => (
          <circle key={page.page} cx={x(index)} cy={y(readers ? page.readers / readers : 0)} r="3" fill="#b3261e" />
        ))}
      </svg>
      <figcaption>
        <span className="page-time-chart__key page-time-chart__key--time">{words.legendTime}</span>{" "}
        <span className="page-time-chart__key page-time-chart__key--reached">{words.legendReached}</span>
      </figcaption>
    </figure>
  );
}
