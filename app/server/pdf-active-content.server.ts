/**
 * Drops from a PDF what could run, or be carried along, when an investor opens the stamped copy: scripts
 * (the document's, a page's, a form field's, an annotation's or a bookmark's), launch, form-submitting and
 * other actions, and attached files, which would travel inside the copy unstamped. What stays is what a
 * document reads by: its pages, and its links within itself or to a web address. Objects nothing points at
 * any more are deleted too, since pdf-lib writes every object it holds, referenced or not.
 */
import {
  PDFArray,
  PDFDict,
  type PDFDocument,
  PDFHexString,
  PDFName,
  type PDFObject,
  PDFRef,
  PDFStream,
  PDFString,
} from "pdf-lib";

const name = (value: string) => PDFName.of(value);

/** A web or mail address: what a link may open (not `javascript:`, nor a file on the reader's computer). */
const WEB_ADDRESS = /^(?:https?:\/\/|mailto:)/i;

/** Entries that carry scripts, triggers or attached files, wherever they are found. */
const ACTIVE_ENTRIES = [
  name("AA"), // additional actions: on open, close, print, a page's or a field's events
  name("AF"), // associated files (PDF 2.0)
  name("XFA"), // an XML form, with its scripts
  name("JavaScript"), // the document's scripts, in its name tree
  name("EmbeddedFiles"), // the document's attachments, in its name tree
  name("AlternatePresentations"), // slide shows, which may run scripts
  name("Collection"), // a portfolio's view of its attachments
];

/** Annotations that hold a file or play media. */
const ACTIVE_ANNOTATIONS = new Set(["FileAttachment", "Sound", "Movie", "Screen", "RichMedia", "3D"].map(name));

export function removeActiveContent(pdf: PDFDocument) {
  const { context } = pdf;
  const lookup = (value: PDFObject | undefined) => (value instanceof PDFRef ? context.lookup(value) : value);

  /**
   * A destination (an array or a name), or an action that only moves within the document or opens a web
   * address, stays; any other action goes. (`A` is an action wherever it has an `S`, its kind.)
   */
  const isInert = (value: PDFObject | undefined) => {
    const action = lookup(value);
    if (!(action instanceof PDFDict) || !action.has(name("S"))) return true;
    // An inert action's follow-up would run after it: it goes, whatever it is.
    action.delete(name("Next"));
    const kind = action.get(name("S"));
    if (kind === name("GoTo")) return true;
    const address = lookup(action.get(name("URI")));
    const text = address instanceof PDFString || address instanceof PDFHexString ? address.decodeText() : "";
    return kind === name("URI") && WEB_ADDRESS.test(text);
  };

  const clean = (dict: PDFDict) => {
    for (const key of ACTIVE_ENTRIES) dict.delete(key);
    for (const key of [name("A"), name("OpenAction")]) if (dict.has(key) && !isInert(dict.get(key))) dict.delete(key);
    const annotations = lookup(dict.get(name("Annots")));
    if (annotations instanceof PDFArray) {
      const kept = annotations.asArray().filter((entry) => {
        const annotation = lookup(entry);
        return !(annotation instanceof PDFDict && ACTIVE_ANNOTATIONS.has(annotation.get(name("Subtype")) as PDFName));
      });
      dict.set(name("Annots"), context.obj(kept));
    }
  };

  // Every dictionary, at any depth of every object: actions hide in fields, bookmarks and annotations alike.
  const visit = (value: PDFObject | undefined) => {
    if (value instanceof PDFStream) return visit(value.dict);
    if (value instanceof PDFArray) return value.asArray().forEach(visit);
    if (!(value instanceof PDFDict)) return;
    clean(value);
    for (const [, entry] of value.entries()) visit(entry);
  };
  for (const [, object] of context.enumerateIndirectObjects()) visit(object);

  deleteUnreachable(pdf);
}

/** Deletes every object that the trailer (the catalog, the document's information) no longer leads to. */
function deleteUnreachable(pdf: PDFDocument) {
  const { context } = pdf;
  const reached = new Set<PDFRef>();
  const pending: (PDFObject | undefined)[] = [context.trailerInfo.Root, context.trailerInfo.Info];
  while (pending.length > 0) {
    const value = pending.pop();
    if (value instanceof PDFRef) {
      if (reached.has(value)) continue;
      reached.add(value);
      pending.push(context.lookup(value));
    } else if (value instanceof PDFStream) pending.push(value.dict);
    else if (value instanceof PDFArray) pending.push(...value.asArray());
    else if (value instanceof PDFDict) pending.push(...value.values());
  }
  for (const [ref] of context.enumerateIndirectObjects()) if (!reached.has(ref)) context.delete(ref);
}
