/**
 * The viewer's reports of time per page (POST /financing/materials/:id/reading), read once here: a JSON
 * batch of at most READING_PAGES_PER_BATCH pages, each named once, each with at most a batch's worth of
 * time. What is plausible beyond its form (app/models/reading/page-times.server.ts) is the model's to judge.
 */
import { z } from "zod";
import { readingRefusals } from "~/content/reading";
import type { PublicUser } from "~/models/account/user.server";
import { documentIdSchema } from "~/models/library/library-schema.server";
import { recordReadingBatch, type ReadingBatch } from "~/models/reading/page-times.server";

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

const plain = (message: string, status: number, headers: Record<string, string> = {}) =>
  new Response(message, { status, headers: { "Content-Type": "text/plain; charset=utf-8", ...headers } });

/** 204 when the batch is kept; else a 4xx that says why, and nothing of it kept. */
export async function acceptReadingBatch(request: Request, reader: PublicUser, documentId: string | undefined) {
  const id = documentIdSchema.safeParse(documentId);
  let body: unknown;
  try {
    body = JSON.parse(await request.text());
  } catch {
    body = undefined;
  }
  const batch = batchSchema.safeParse(body);
  if (!id.success || !batch.success) return plain(readingRefusals.malformed, 400);
  const result = await recordReadingBatch(reader, id.data, batch.data satisfies ReadingBatch);
  if (result.ok) return new Response(null, { status: 204 });
  const retry = result.retryAfterSeconds ? { "Retry-After": String(result.retryAfterSeconds) } : undefined;
  return plain(result.message, result.status, retry);
}
