/**
 * The viewer's reports of time per page (POST /financing/materials/:id/reading) and the watch page's of
 * the parts of a video played (POST /financing/materials/:id/watching), read once here: a JSON batch of
 * at most READING_PAGES_PER_BATCH pages, each named once, each with at most a batch's worth of time; a
 * video's length, where it stopped and at most PLAYED_RANGES_PER_REPORT ranges played. What is plausible
 * beyond their form (app/models/reading/) is the models' to judge.
 */
import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { readingRefusals, watchingRefusals } from "~/content/reading";
import { requireNdaSigned } from "~/http/auth.server";
import type { PublicUser } from "~/models/account/user.server";
import { documentIdSchema } from "~/models/library/library-schema.server";
import { recordReadingBatch, type ReadingBatch } from "~/models/reading/page-times.server";
import { recordVideoWatch, type WatchReport } from "~/models/reading/video-watches.server";

export const READING_PAGES_PER_BATCH = 50;
/** A batch holds at most ten minutes of reading: the viewer reports every 30 seconds. */
export const READING_MS_PER_BATCH = 600_000;

const uuid = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);

const batchSchema = z
  .object({
    downloadId: uuid.transform((id) => id.toLowerCase()),
    stream: uuid,
    batch: z.number().int().min(1).max(1_000_000),
    pages: z
      .array(
        z
          .object({ page: z.number().int().min(1).max(100_000), ms: z.number().int().min(1).max(READING_MS_PER_BATCH) })
          .strict(),
      )
      .min(1)
      .max(READING_PAGES_PER_BATCH),
  })
  .strict()
  .refine((batch) => new Set(batch.pages.map((entry) => entry.page)).size === batch.pages.length)
  .refine((batch) => batch.pages.reduce((sum, entry) => sum + entry.ms, 0) <= READING_MS_PER_BATCH);

export const PLAYED_RANGES_PER_REPORT = 200;
const DAY_MS = 86_400_000;

const watchSchema = z
  .object({
    durationMs: z.number().int().min(1).max(DAY_MS),
    stoppedAtMs: z.number().int().min(0).max(DAY_MS),
    ranges: z
      .array(z.tuple([z.number().int().min(0).max(DAY_MS), z.number().int().min(0).max(DAY_MS)]))
      .min(1)
      .max(PLAYED_RANGES_PER_REPORT),
  })
  .strict()
  .refine((report) => report.ranges.every(([from, to]) => from < to));

const plain = (message: string, status: number, headers: Record<string, string> = {}) =>
  new Response(message, { status, headers: { "Content-Type": "text/plain; charset=utf-8", ...headers } });

type Kept = { ok: true } | { ok: false; status: number; message: string; retryAfterSeconds?: number };

/** 204 when the model kept the report; else its 4xx, its reason and when to try again. */
function answer(result: Kept) {
  if (result.ok) return new Response(null, { status: 204 });
  const retry = result.retryAfterSeconds ? { "Retry-After": String(result.retryAfterSeconds) } : undefined;
  return plain(result.message, result.status, retry);
}

const postOnly = () => new Response(null, { status: 405, headers: { Allow: "POST" } });

/** A report route's action and loader: POST by an investor who signed the NDA, any other method 405. */
export function reportRoute(
  accept: (request: Request, investor: PublicUser, documentId: string | undefined) => Promise<Response>,
) {
  return {
    action: async ({ request, params }: ActionFunctionArgs) => {
      if (request.method !== "POST") return postOnly();
      return accept(request, await requireNdaSigned(request), params.documentId);
    },
    loader: postOnly,
  };
}

/** 204 when the batch is kept; else a 4xx that says why, and nothing of it kept. */
export async function acceptReadingBatch(request: Request, reader: PublicUser, documentId: string | undefined) {
  const id = documentIdSchema.safeParse(documentId);
  const batch = batchSchema.safeParse(await jsonBody(request));
  if (!id.success || !batch.success) return plain(readingRefusals.malformed, 400);
  return answer(await recordReadingBatch(reader, id.data, batch.data satisfies ReadingBatch));
}

/** 204 when the report is kept; else a 4xx that says why, and nothing of it kept. */
export async function acceptWatchReport(request: Request, viewer: PublicUser, documentId: string | undefined) {
  const id = documentIdSchema.safeParse(documentId);
  const report = watchSchema.safeParse(await jsonBody(request));
  if (!id.success || !report.success) return plain(watchingRefusals.malformed, 400);
  return answer(await recordVideoWatch(viewer, id.data, report.data satisfies WatchReport));
}

/** The body as JSON; undefined when it is not JSON (the schema then refuses it). */
async function jsonBody(request: Request): Promise<unknown> {
  try {
    return JSON.parse(await request.text());
  } catch {
    return undefined;
  }
}
