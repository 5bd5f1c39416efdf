/**
 * Seals a PDF with a digital signature (PAdES: a detached CAdES signature over the whole file but the
 * signature itself) under the firm's certificate, so any reader shows whether the file changed after.
 * The signature is the last thing written: a later change, even one byte, breaks it.
 */
import { pdflibAddPlaceholder } from "@signpdf/placeholder-pdf-lib";
import { SignPdf } from "@signpdf/signpdf";
import type { PDFDocument } from "pdf-lib";
import type { SigningKey } from "./nda-signing-key.server";
import { ParsedKeySigner, parseP12 } from "./pdf-signer.server";

/** ETSI.CAdES.detached: the PAdES baseline's sub-filter (the library names it SUBFILTER_ETSI_CADES_DETACHED). */
const PADES_SUBFILTER = "ETSI.CAdES.detached";

/** Each key's signer, made at its first seal: the PKCS#12 is decrypted once, not at every signature. */
const signers = new WeakMap<SigningKey, ParsedKeySigner>();

function signerFor(key: SigningKey): ParsedKeySigner {
  let signer = signers.get(key);
  if (!signer) {
    signer = new ParsedKeySigner(parseP12(key.p12, key.passphrase));
    signers.set(key, signer);
  }
  return signer;
}

export type SealFields = { reason: string; name: string; location: string; contactInfo: string; at: Date };

/** The document saved with a signature of the whole file under `key`. */
export async function sealPdf(pdf: PDFDocument, key: SigningKey, fields: SealFields): Promise<Buffer> {
  pdflibAddPlaceholder({
    pdfDoc: pdf,
    reason: fields.reason,
    name: fields.name,
    location: fields.location,
    contactInfo: fields.contactInfo,
    signingTime: fields.at,
    subFilter: PADES_SUBFILTER,
    appName: fields.name,
  });
  // Without object streams: the placeholder's byte range must be found in the file as written.
  const unsigned = await pdf.save({ useObjectStreams: false });
  return new SignPdf().sign(Buffer.from(unsigned), signerFor(key), fields.at);
}
