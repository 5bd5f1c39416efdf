import { textBytes } from "./text-bytes.server";

/**
 * A CSV export's answer: a private attachment nobody keeps. A HEAD request carries no copy away, so the
 * export (and its audit row) is skipped.
 */
export async function csvAttachment(request: Request, fileName: string, makeCsv: () => Promise<string>) {
  const headers = {
    "Content-Type": "text/csv; charset=utf-8",
    "Content-Disposition": `attachment; filename="${fileName}"`,
    "Cache-Control": "private, no-store",
  };
  if (request.method === "HEAD") return new Response(null, { headers });
  return new Response(textBytes(await makeCsv()), { headers });
}
