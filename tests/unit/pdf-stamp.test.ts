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
import { PDF_STAMP_LIMITS } from "~/lib/material-limits";
import { PdfTooCostly, stampPdf, type Stamp } from "~/server/pdf-stamp.server";
import { deflateBombPdf, manyPagesPdf } from "../support/hostile-pdfs";
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

  it("refuses a document whose pages' content inflates past 32 MiB together, each stream well under it", async () => {
    const bomb = await deflateBombPdf({ pages: 4, mibEach: 12 });
    const refusal = stampPdf(bomb, stampOf(["Prepared for Jane Doe"]));
    await expect(refusal).rejects.toThrow(PdfTooCostly);
    await expect(refusal).rejects.toMatchObject({ reason: "content" });
    // Under the limit, the same pages stamp.
    expect(
      await pdfPageTexts(await stampPdf(await deflateBombPdf({ pages: 2, mibEach: 12 }), stampOf(["Jane"]))),
    ).toHaveLength(2);
  });

  it(`refuses a document of more than ${PDF_STAMP_LIMITS.pages} pages before stamping any`, async () => {
    const refusal = stampPdf(manyPagesPdf(PDF_STAMP_LIMITS.pages + 1), stampOf(["Prepared for Jane Doe"]));
    await expect(refusal).rejects.toMatchObject({ reason: "pages", amount: PDF_STAMP_LIMITS.pages + 1 });
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

  it("drops every script, action that is not a link, and attached file from the copy, keeping its links", async () => {
    const stamped = await stampPdf(await activeContentPdf(), stampOf(["Prepared for Jane Doe"]));
    const copy = await PDFDocument.load(stamped);
    const everything = copy.context
      .enumerateIndirectObjects()
      .map(([, object]) => (object instanceof PDFRawStream ? object.dict.toString() : object.toString()))
      .join("\n");
    for (const active of [
      "/OpenAction",
      "/AA",
      "/AF",
      "/JavaScript",
      "/JS",
      "/Launch",
      "/SubmitForm",
      "/EmbeddedFile",
      "/FileAttachment",
      "/Next",
    ])
      expect(everything, active).not.toContain(active);
    // Not even unreferenced: the attachments' bytes are not in the file.
    expect(Buffer.from(stamped).toString("latin1")).not.toContain("ATTACHED-UNSTAMPED");
    // The page's link to the firm's site, and its link to another page, stay; the text is still there.
    expect(everything).toContain("(https://example.com/)");
    expect(everything).toContain("/GoTo");
    expect((await pdfPageTexts(stamped))[0]).toContain(bodyText(1));
  });
});

/**
 * The three pages, with what a copy must not carry: a script run on opening, on closing, and by name; an
 * attached file in the name tree and as an associated file; a page's launch action on opening; a link that
 * runs a script, one that submits a form, a web link and an internal one followed by a script, and a file
 * attachment annotation.
 */
async function activeContentPdf() {
  const pdf = await PDFDocument.load(await threePages());
  const { context, catalog } = pdf;
  const script = (code: string) => context.obj({ S: "JavaScript", JS: PDFString.of(code) });
  const attachment = (label: string) => {
    const bytes = context.register(context.stream(`ATTACHED-UNSTAMPED ${label}`, { Type: "EmbeddedFile" }));
    return context.register(
      context.obj({ Type: "Filespec", F: PDFString.of(`${label}.txt`), EF: context.obj({ F: bytes }) }),
    );
  };
  catalog.set(PDFName.of("OpenAction"), context.register(script("app.alert('opened')")));
  catalog.set(PDFName.of("AA"), context.obj({ WC: script("app.alert('closed')") }));
  catalog.set(
    PDFName.of("Names"),
    context.obj({
      JavaScript: context.obj({ Names: [PDFString.of("doc"), context.register(script("app.alert('named')"))] }),
      EmbeddedFiles: context.obj({ Names: [PDFString.of("named.txt"), attachment("named")] }),
    }),
  );
  catalog.set(PDFName.of("AF"), context.obj([attachment("associated")]));
  const page = pdf.getPage(0);
  page.node.set(PDFName.of("AA"), context.obj({ O: context.obj({ S: "Launch", F: PDFString.of("calc.exe") }) }));
  const link = (action: PDFDict) =>
    context.register(context.obj({ Type: "Annot", Subtype: "Link", Rect: [0, 0, 100, 20], A: action }));
  const goTo = context.obj({ S: "GoTo", D: [pdf.getPage(2).ref, PDFName.of("Fit")] });
  goTo.set(PDFName.of("Next"), script("app.alert('after the jump')"));
  page.node.set(
    PDFName.of("Annots"),
    context.obj([
      link(script("app.alert('clicked')")),
      link(context.obj({ S: "SubmitForm", F: PDFString.of("https://attacker.example/") })),
      link(context.obj({ S: "URI", URI: PDFString.of("https://example.com/") })),
      link(goTo),
      context.register(
        context.obj({ Type: "Annot", Subtype: "FileAttachment", Rect: [0, 30, 20, 50], FS: attachment("annotation") }),
      ),
    ]),
  );
  return pdf.save();
}
