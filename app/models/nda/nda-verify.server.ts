/**
 * "Verify a signed NDA": is an uploaded PDF one this portal sealed, unaltered, and whose? By hash (the
 * file is byte for byte one stored at a signature), and by signature (its last PAdES signature covers the
 * whole file, its digest matches the bytes, and it was made under the firm's certificate). Every
 * verification is an audit row.
 */
import { createHash } from "node:crypto";
import forge from "node-forge";
import { ndaMessages } from "~/content/nda";
import type { Actor } from "~/models/administrators/admin-result.server";
import { recordAuditEvent } from "~/models/audit/audit.server";
import type { Failure } from "~/models/failure";
import { looksLikePdf } from "~/models/library/material-file.server";
import { getDb } from "~/server/db.server";
import { ndaSigningKey } from "./nda-key.server";

export type Verification = {
  sha256: string;
  /** The stored file it is, if any: the investor's signature, or the fully signed NDA. */
  match: { email: string; kind: "signed" | "completed"; signedAt: number } | null;
  /** What the embedded signature says: none, broken, valid under another certificate, or valid under the firm's. */
  seal: "none" | "invalid" | "other-certificate" | "valid";
};

export async function verifySignedNda(
  bytes: Uint8Array,
  actor: Actor,
  ip: string | null,
): Promise<{ ok: true; verification: Verification } | Failure<415>> {
  if (!looksLikePdf(bytes.subarray(0, 8))) return { ok: false, status: 415, message: ndaMessages.verifyNotPdf };
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  const row = await getDb()
    .selectFrom("nda_signatures")
    .select(["email", "signed_at", "signed_sha256", "completed_sha256"])
    .where((eb) => eb.or([eb("signed_sha256", "=", sha256), eb("completed_sha256", "=", sha256)]))
    .executeTakeFirst();
  const verification: Verification = {
    sha256,
    match: row
      ? {
          email: row.email,
          kind: row.completed_sha256 === sha256 ? "completed" : "signed",
          signedAt: Number(row.signed_at),
        }
      : null,
    seal: sealOf(Buffer.from(bytes), ndaSigningKey().fingerprint),
  };
  await recordAuditEvent({
    actorId: actor.id,
    actorEmail: actor.email,
    action: "nda.verified",
    targetEmail: verification.match?.email ?? null,
    details: { sha256, matched: verification.match?.kind ?? null, seal: verification.seal },
    ip,
  });
  return { ok: true, verification };
}

/** The file's last signature, checked: it covers the whole file, its digest is the bytes', and whose certificate. */
function sealOf(file: Buffer, firmFingerprint: string): Verification["seal"] {
  const text = file.toString("latin1");
  const at = text.lastIndexOf("/ByteRange");
  if (at < 0) return "none";
  const range = /\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/.exec(text.slice(at, at + 200));
  if (!range) return "invalid";
  const [start, firstLength, second, secondLength] = range.slice(1).map(Number);
  if (start !== 0 || second + secondLength !== file.length) return "invalid";
  // The signature's DER, padded with zeros to its placeholder's length: read for its own length, the padding left.
  const contents = text.slice(firstLength + 1, second - 1);
  try {
    const message = forge.pkcs7.messageFromAsn1(
      forge.asn1.fromDer(derOf(Buffer.from(contents, "hex")).toString("latin1")),
    ) as forge.pkcs7.PkcsSignedData & {
      rawCapture: { authenticatedAttributes?: forge.asn1.Asn1[]; signature: string };
    };
    const signed = Buffer.concat([file.subarray(0, firstLength), file.subarray(second, second + secondLength)]);
    const digest = createHash("sha256").update(signed).digest();
    const attributes = message.rawCapture.authenticatedAttributes ?? [];
    const messageDigest = attributes
      .map((attribute) => attribute.value as forge.asn1.Asn1[])
      .find((parts) => forge.asn1.derToOid(parts[0].value as string) === forge.pki.oids.messageDigest);
    const stated = ((messageDigest?.[1].value as forge.asn1.Asn1[])[0]?.value as string | undefined) ?? "";
    if (!digest.equals(Buffer.from(stated, "latin1"))) return "invalid";
    // The digest is one of the signed attributes: the signature over them, under the certificate's key, is the seal.
    const certificate = message.certificates[0];
    const signedAttributes = forge.asn1.create(forge.asn1.Class.UNIVERSAL, forge.asn1.Type.SET, true, attributes);
    const md = forge.md.sha256.create().update(forge.asn1.toDer(signedAttributes).getBytes());
    const publicKey = certificate.publicKey as forge.pki.rsa.PublicKey;
    if (!publicKey.verify(md.digest().bytes(), message.rawCapture.signature)) return "invalid";
    const der = forge.asn1.toDer(forge.pki.certificateToAsn1(certificate)).getBytes();
    const fingerprint = createHash("sha256").update(Buffer.from(der, "latin1")).digest("hex");
    return fingerprint === firmFingerprint ? "valid" : "other-certificate";
  } catch {
    return "invalid";
  }
}

/** The DER value at the start of `padded` (a SEQUENCE), without the zeros after it. */
function derOf(padded: Buffer): Buffer {
  const first = padded[1];
  if (first < 0x80) return padded.subarray(0, 2 + first);
  const lengthBytes = first & 0x7f;
  const length = padded.subarray(2, 2 + lengthBytes).reduce((sum, byte) => sum * 256 + byte, 0);
  return padded.subarray(0, 2 + lengthBytes + length);
}
