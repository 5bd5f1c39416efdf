/** The text of each page of a PDF, as a reader extracts it (pdf.js, through unpdf). */
import { extractText, getDocumentProxy } from "unpdf";

export async function pdfPageTexts(bytes: Uint8Array): Promise<string[]> {
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  const { text } = await extractText(pdf, { mergePages: false });
  return text;
}
