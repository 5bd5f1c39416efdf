import { pipelineContent as words } from "~/content/pipeline";
import type { PipelineStage } from "~/lib/pipeline-stages";

const WIDTH = 640;
const ROW = 44;
const LABEL = 200;

/**
 * The pipeline as a funnel: drawn on the server as SVG, so it reads without JavaScript and prints. Each
 * stage's bar is as wide as its share of those who signed up, and links to the table filtered to it; the
 * text beside it says the count, so the figure never rests on the drawing alone.
 */
export function PipelineFunnel({ stages }: { stages: { stage: PipelineStage; count: number; href: string }[] }) {
  const top = Math.max(1, stages[0]?.count ?? 1);
  const height = stages.length * ROW;
  const summary = stages.map((stage) => `${words.stages[stage.stage]} ${stage.count}`).join(", ");
  return (
    <svg
      className="pipeline-funnel"
      viewBox={`0 0 ${WIDTH} ${height}`}
      aria-labelledby="funnel-title funnel-description"
      width="100%"
      preserveAspectRatio="xMinYMin meet"
    >
      <title id="funnel-title">{words.funnelTitle}</title>
      <desc id="funnel-description">{words.funnelDescription(summary)}</desc>
      {stages.map((stage, index) => {
        const barSpace = WIDTH - LABEL - 8;
        const width = Math.max(2, Math.round((stage.count / top) * barSpace));
        const x = LABEL + (barSpace - width) / 2;
        const y = index * ROW;
        return (
          <a key={stage.stage} href={stage.href} aria-label={words.showTable(words.stages[stage.stage])}>
            <text x={0} y={y + ROW / 2 + 5} fontSize="15" fill="currentColor">
              {words.stages[stage.stage]}
            </text>
            <rect x={x} y={y + 6} width={width} height={ROW - 12} fill="#1f4e79" stroke="#0b2239" rx="3" />
            <text
              x={LABEL + barSpace / 2}
              y={y + ROW / 2 + 5}
              fontSize="15"
              textAnchor="middle"
              fill="#ffffff"
              stroke="#0b2239"
              strokeWidth="3"
              paintOrder="stroke"
            >
              {stage.count.toLocaleString("en-US")}
            </text>
          </a>
        );
      })}
    </svg>
  );
}
