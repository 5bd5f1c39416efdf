/**
 * The stamping pool (app/server/stamp-pool.server.ts): a copy stamped on a worker thread is the copy the
 * stamping module makes, and a pool whose places are all taken refuses at once, before the copy is read
 * or recorded, with 503 and Retry-After.
 */
import { readFileSync } from "node:fs";
import { materialsMessages } from "~/content/materials";
import { stampedPdfResponse } from "~/http/stamped-pdf.server";
import { stampPdf, type Stamp } from "~/server/pdf-stamp.server";
import { createStampPool, STAMPING_RETRY_AFTER_SECONDS, StampingBusy } from "~/server/stamp-pool.server";
import { pdfPageTexts } from "../support/pdf-text";

const pdf = new Uint8Array(readFileSync("private/download.pdf"));
const stamp: Stamp = {
  band: [["Prepared for Jane Doe <jane@example.com>"]],
  watermark: "Confidential · jane@example.com",
  downloadId: "123e4567-e89b-12d3-a456-426614174000",
};

test("a copy stamped on the pool's thread reads as the one stamped in process", async () => {
  const pool = createStampPool({ threads: 1, queue: 0 });
  try {
    const place = pool.reserve();
    const onThread = await place.stamp(pdf, stamp);
    expect(await pdfPageTexts(onThread)).toEqual(await pdfPageTexts(await stampPdf(pdf, stamp)));
  } finally {
    await pool.close();
  }
});

test("a pool with every place taken refuses the next copy, and takes one again once a place is given back", async () => {
  const pool = createStampPool({ threads: 1, queue: 1 });
  try {
    const first = pool.reserve();
    const second = pool.reserve();
    expect(() => pool.reserve()).toThrow(StampingBusy);
    await first.stamp(pdf, stamp);
    second.release();
    pool.reserve().release();
  } finally {
    await pool.close();
  }
});

test("a stamped download refused by a full pool answers 503 with Retry-After, reading and recording nothing", async () => {
  const pool = createStampPool({ threads: 1, queue: 0 });
  try {
    const held = pool.reserve();
    const source = vi.fn(async () => pdf);
    const record = vi.fn(async () => "download-id");
    const download = () =>
      stampedPdfResponse({
        request: new Request("http://localhost/pdfs/download.pdf"),
        user: { fullName: "Jane Doe", email: "jane@example.com" },
        contentDisposition: "inline",
        source,
        record,
        pool,
      });
    const answer = await download();
    expect(answer.status).toBe(503);
    expect(answer.headers.get("retry-after")).toBe(String(STAMPING_RETRY_AFTER_SECONDS));
    expect(await answer.text()).toBe(materialsMessages.stampingBusy(STAMPING_RETRY_AFTER_SECONDS));
    expect(source).not.toHaveBeenCalled();
    expect(record).not.toHaveBeenCalled();
    held.release();

    const served = await download();
    expect(served.status).toBe(200);
    expect(record).toHaveBeenCalledOnce();
  } finally {
    await pool.close();
  }
});
