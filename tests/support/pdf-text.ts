/** The text of each page of a PDF, as a reader extracts it (pdf.js, through unpdf). */
import { extractText, getDocumentProxy } from "unpdf";

export async function pdfPageTexts(bytes: Uint8Array): Promise<string[]> {
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  const { text } = await extractText(pdf, { mergePages: false });
  return text;
}

/** A run of text where a reader places it, in the page's own units (y upward): start, end and size. */
export interface PlacedText {
  str: string;
  x: number;
  y: number;
  endX: number;
  endY: number;
  size: number;
  /** Degrees counter-clockwise from horizontal. */
  angle: number;
}

/** Each page's runs of text, in content order, with the page's media box as pdf.js reads it. */
export async function pdfPageRuns(bytes: Uint8Array): Promise<{ view: number[]; runs: PlacedText[] }[]> {
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  const pages = [];
  for (let number = 1; number <= pdf.numPages; number++) {
    const page = await pdf.getPage(number);
    const { items } = await page.getTextContent();
    const runs = items.flatMap((item) => {
      if (!("str" in item) || !item.str.trim()) return [];
      const [a, b, , , x, y] = item.transform as number[];
      const size = Math.hypot(a, b);
      return [
        {
          str: item.str,
          x,
          y,
          endX: x + (item.width * a) / size,
          endY: y + (item.width * b) / size,
          size,
          angle: (Math.atan2(b, a) * 180) / Math.PI,
        },
      ];
    });
    pages.push({ view: page.view, runs });
  }
  return pages;
}
