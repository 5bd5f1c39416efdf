/** The engagement ranking as CSV, guarded as the reading report's exports are, recorded in the audit trail. */
import { insightsContent } from "~/content/reading-insights";
import { recordAuditEvent } from "~/models/audit/audit.server";
import type { Actor } from "~/models/library/library-documents.server";
import { csv } from "~/models/library/reading-export.server";
import { engagementRanking } from "./engagement.server";

/** Every investor the period ranks (the firm's investors, so a bounded number). */
const EVERYONE = 1_000_000;

export async function exportEngagement(
  period: { from: string; to: string; fromMs: number; toMs: number },
  actor: Actor,
): Promise<string> {
  const ranking = await engagementRanking(period.fromMs, period.toMs, EVERYONE);
  await recordAuditEvent({
    actorId: actor.user.id,
    actorEmail: actor.user.email,
    action: "material.engagement_exported",
    details: { from: period.from, to: period.to, rows: ranking.length },
    ip: actor.ip,
  });
  return csv(
    insightsContent.engagement.csvHeader,
    ranking.map((row, index) => [index + 1, row.fullName, row.email, row.minutes, row.documents, row.score]),
  );
}
