import { deflateSync } from "node:zlib";
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFName,
  PDFRawStream,
  type PDFRef,
  PDFString,
  StandardFonts,
  decodePDFRawStream,
} from "pdf-lib";
import { materialsStamp } from "~/content/portal";
import { stampPdf, type Stamp } from "~/server/pdf-stamp.server";
import { pdfPageRuns, pdfPageTexts, type PlacedText } from "../support/pdf-text";

const DOWNLOAD_ID = "123e4567-e89b-12d3-a456-426614174000";
const DOWNLOADED_AT = "November 25, 2026 at 3:49:21 PM UTC";
/** The longest e-mail address there can be: 64 characters, "@", and a domain of 189. */
const LONGEST_EMAIL = `${"l".repeat(64)}@${"d".repeat(62)}.${"e".repeat(62)}.${"f".repeat(59)}.com`;

/**
 * A three-page document whose own text runs down to the very bottom of each page; page 2's content
 * is several streams, as a page edited after it was made has.
 */
async function threePages() {
  const pdf = await PDFDocument.create();
  pdf.setTitle("Fixture");
  pdf.setKeywords(["alpha", "beta"]);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= 3; i++) {
    const page = pdf.addPage([612, 792]);
    page.drawText(`Page ${i} body text`, { x: 50, y: 700, size: 12, font });
    page.drawText(`Page ${i} last line`, { x: 50, y: 2, size: 12, font });
  }
  const edited = await PDFDocument.load(await pdf.save());
  const helvetica = await edited.embedFont(StandardFonts.Helvetica);
  edited.getPage(1).drawText("Page 2 added later", { x: 50, y: 400, size: 12, font: helvetica });
  return edited.save();
}

/** Band lines as given, with the watermark and id of jane@example.com's download. */
function stampOf(lines: string[]): Stamp {
  return {
    band: lines.map((line) => [line]),
    watermark: `Confidential · jane@example.com · ${DOWNLOAD_ID}`,
    downloadId: DOWNLOAD_ID,
  };
}

const bodyText = (page: number) => `Page ${page} body text`;

function contentsOf(pdf: PDFDocument, pageIndex: number) {
  return pdf.getPage(pageIndex).node.get(PDFName.of("Contents"));
}

/** Every run of text lies on the page: its baseline's start and end inside the media box. */
function expectAllOnPage({ view, runs }: { view: number[]; runs: PlacedText[] }) {
  const [left, bottom, right, top] = view;
  for (const run of runs) {
    for (const [x, y] of [
      [run.x, run.y],
      [run.endX, run.endY],
    ]) {
      expect(x, run.str).toBeGreaterThanOrEqual(left);
      expect(x, run.str).toBeLessThanOrEqual(right);
      expect(y, run.str).toBeGreaterThanOrEqual(bottom);
      expect(y, run.str).toBeLessThanOrEqual(top);
    }
  }
}

const bandRuns = (runs: PlacedText[]) => runs.filter((run) => run.angle === 0 && run.y < 0);
const watermarkRuns = (runs: PlacedText[]) => runs.filter((run) => run.angle >= 30 && run.angle <= 45);

describe("stampPdf", () => {
  it("stamps every page in a band added below it, leaving the document's own text in place", async () => {
    const stamped = await stampPdf(
      await threePages(),
      stampOf(["Prepared for Jane Doe <jane@example.com>", "Download ID abc-123"]),
    );
    const texts = await pdfPageTexts(stamped);
    expect(texts).toHaveLength(3);
    texts.forEach((text, i) => {
      expect(text).toContain(`Page ${i + 1} body text`);
      expect(text).toContain(`Page ${i + 1} last line`);
      expect(text).toContain("Prepared for Jane Doe <jane@example.com>");
      expect(text).toContain("Download ID abc-123");
    });
    expect(texts[1]).toContain("Page 2 added later");
    const pages = (await PDFDocument.load(stamped)).getPages();
    for (const page of pages) {
      // The page grew downward by the band: its own area (y >= 0) is untouched.
      expect(page.getMediaBox()).toEqual({ x: 0, y: -30, width: 612, height: 822 });
    }
  });

  it("reads a page's content however it is encoded: deflated, not compressed at all, or in hexadecimal", async () => {
    const pdf = await PDFDocument.load(await threePages());
    const operatorsOf = (index: number) => {
      const contents = pdf.getPage(index).node.get(PDFName.of("Contents"));
      const refs = contents instanceof PDFArray ? contents.asArray() : [contents];
      return Buffer.concat(
        refs.map((ref) => Buffer.from(decodePDFRawStream(pdf.context.lookup(ref as PDFRef) as PDFRawStream).decode())),
      );
    };
    const plain = operatorsOf(0);
    const hex = operatorsOf(2).toString("hex") + ">";
    pdf.getPage(0).node.set(PDFName.of("Contents"), pdf.context.register(pdf.context.stream(plain)));
    pdf
      .getPage(2)
      .node.set(PDFName.of("Contents"), pdf.context.register(pdf.context.stream(hex, { Filter: "ASCIIHexDecode" })));
    const texts = await pdfPageTexts(await stampPdf(await pdf.save(), stampOf(["Prepared for Jane Doe"])));
    texts.forEach((text, i) => {
      expect(text).toContain(bodyText(i + 1));
      expect(text).toContain("Prepared for Jane Doe");
      expect(text).toContain(DOWNLOAD_ID);
    });
  });

  it("refuses a page whose content inflates past 128 MiB, as a PDF built to exhaust memory", async () => {
    const pdf = await PDFDocument.load(await threePages());
    const bomb = deflateSync(Buffer.alloc(128 * 1024 * 1024 + 1, " "));
    pdf
      .getPage(0)
      .node.set(PDFName.of("Contents"), pdf.context.register(pdf.context.stream(bomb, { Filter: "FlateDecode" })));
    await expect(stampPdf(await pdf.save(), stampOf(["Prepared for Jane Doe"]))).rejects.toThrow(RangeError);
  });

  it("keeps accented letters the font has, drops accents it lacks, and shows other characters as ?", async () => {
    const stamped = await stampPdf(await threePages(), stampOf(["Zoë Ångström Dąbrowska Łukasz 李"]));
    const [first] = await pdfPageTexts(stamped);
    expect(first).toContain("Zoë Ångström Dabrowska ?ukasz ?");
  });

  it("shrinks a long line to fit the page's width", async () => {
    const long = `Prepared for ${"A very long name ".repeat(8)}`;
    const stamped = await stampPdf(await threePages(), stampOf([long]));
    const [first] = await pdfPageTexts(stamped);
    expect(first.replace(/\s+/g, " ")).toContain(long.trim());
  });

  it("writes the e-mail and download id across each page in its one content stream, under the document's own text", async () => {
    const stamped = await stampPdf(await threePages(), stampOf(["Prepared for Jane Doe <jane@example.com>"]));
    const pdf = await PDFDocument.load(stamped);
    const pages = await pdfPageRuns(stamped);
    pages.forEach(({ runs }, i) => {
      // One stream, not an array of them: the stamp and the page's text are the same object.
      expect(pdf.context.lookup(contentsOf(pdf, i))).toBeInstanceOf(PDFRawStream);
      const watermark = watermarkRuns(runs);
      expect(watermark.map((run) => run.str).join(" ")).toBe(`Confidential · jane@example.com · ${DOWNLOAD_ID}`);
      // Drawn first: under the document's text when painted, before it when read; the band comes last.
      const body = runs.findIndex((run) => run.str === bodyText(i + 1));
      expect(runs.indexOf(watermark[0]!)).toBe(0);
      expect(body).toBeGreaterThan(runs.indexOf(watermark.at(-1)!));
      expect(runs.indexOf(bandRuns(runs)[0]!)).toBeGreaterThan(body);
    });
  });

  it("leaves no stream that can be dropped, or put back in the page's place, to give a page back without its stamp", async () => {
    const stamped = await stampPdf(await threePages(), stampOf(["Prepared for Jane Doe <jane@example.com>"]));
    const streams = (await PDFDocument.load(stamped)).context
      .enumerateIndirectObjects()
      .filter(([, object]) => object instanceof PDFRawStream)
      .map(([ref]) => ref);
    expect(streams.length).toBeGreaterThan(0);

    // Each way of lifting the stamp that needs no editing of operators: drop one stream object, or
    // point a page at one (its band's media box given back).
    const attempts: ((pdf: PDFDocument) => void)[] = streams.flatMap((ref) => [
      (pdf: PDFDocument) => void pdf.context.delete(ref),
      ...[0, 1, 2].map((index) => (pdf: PDFDocument) => {
        const page = pdf.getPage(index);
        page.node.set(PDFName.of("Contents"), ref);
        page.setMediaBox(0, 0, 612, 792);
        page.setCropBox(0, 0, 612, 792);
      }),
    ]);
    let pagesKept = 0;
    for (const attempt of attempts) {
      const pdf = await PDFDocument.load(stamped);
      attempt(pdf);
      const texts = await pdfPageTexts(await pdf.save()).catch(() => [] as string[]);
      texts.forEach((text, i) => {
        if (!text.includes(bodyText(i + 1))) return;
        pagesKept++;
        expect(text).toContain("jane@example.com");
        expect(text).toContain(DOWNLOAD_ID);
      });
    }
    expect(pagesKept).toBeGreaterThan(0);
  });

  it("records the download id in the document's metadata, beside what was there", async () => {
    const pdf = await PDFDocument.load(await stampPdf(await threePages(), stampOf(["Prepared for Jane Doe"])));
    expect(pdf.getTitle()).toBe("Fixture");
    expect(pdf.getKeywords()).toBe(`alpha beta ${DOWNLOAD_ID}`);
    const info = pdf.context.lookup(pdf.context.trailerInfo.Info, PDFDict);
    expect(info.lookup(PDFName.of("DownloadId"), PDFString).decodeText()).toBe(DOWNLOAD_ID);
  });

  it("shortens a 200-character name with an ellipsis, the e-mail and download id whole and on the page", async () => {
    const fullName = "Maximiliane Konstantinopoulou-Vanderbilt ".repeat(5).slice(0, 200);
    const stamp = materialsStamp({
      fullName,
      email: "jane@example.com",
      downloadedAt: DOWNLOADED_AT,
      downloadId: DOWNLOAD_ID,
    });
    const stamped = await stampPdf(await threePages(), stamp);
    const pages = await pdfPageRuns(stamped);
    pages.forEach((page, i) => {
      expectAllOnPage(page);
      expect(page.runs.some((run) => run.str === bodyText(i + 1))).toBe(true);
      const band = bandRuns(page.runs);
      expect(band.map((run) => run.size)).toEqual([7, 7]);
      const [prepared, id] = band.map((run) => run.str);
      const shortened = /^Confidential\. Prepared for (.+)… <jane@example\.com> on (.+)\.$/.exec(prepared!);
      expect(shortened?.[2]).toBe(DOWNLOADED_AT);
      expect(shortened?.[1].length).toBeGreaterThanOrEqual(20);
      expect(fullName.startsWith(shortened![1])).toBe(true);
      expect(id).toContain(`download ID ${DOWNLOAD_ID}.`);
      expect(watermarkRuns(page.runs).map((run) => run.str)).toEqual([
        `Confidential · jane@example.com · ${DOWNLOAD_ID}`,
      ]);
    });
  });

  it("keeps a 254-character e-mail whole and on the page at a readable size, beside a 200-character name", async () => {
    expect(LONGEST_EMAIL).toHaveLength(254);
    const fullName = "N".repeat(200);
    const stamp = materialsStamp({
      fullName,
      email: LONGEST_EMAIL,
      downloadedAt: DOWNLOADED_AT,
      downloadId: DOWNLOAD_ID,
    });
    const stamped = await stampPdf(await threePages(), stamp);
    const texts = await pdfPageTexts(stamped);
    const pages = await pdfPageRuns(stamped);
    pages.forEach((page, i) => {
      expectAllOnPage(page);
      expect(texts[i]).toContain(bodyText(i + 1));
      // Broken across lines where it must be, no character lost: the runs in order spell it out.
      const band = bandRuns(page.runs);
      expect(band.every((run) => run.size >= 7)).toBe(true);
      expect(band.map((run) => run.str).join("")).toContain(`<${LONGEST_EMAIL}>`);
      expect(band.map((run) => run.str).join("")).toContain(`download ID ${DOWNLOAD_ID}.`);
      expect(band[0]!.str).toMatch(/^Confidential\. Prepared for N{20}…$/);
      const watermark = watermarkRuns(page.runs);
      expect(watermark.every((run) => run.size >= 10)).toBe(true);
      expect(watermark.map((run) => run.str).join("")).toContain(LONGEST_EMAIL);
      expect(watermark.map((run) => run.str).join("")).toContain(DOWNLOAD_ID);
    });
  });
});
