/**
 * The PKCS#7 signer a sealed PDF carries, with the firm's key and certificate parsed out of the PKCS#12 once
 * per key rather than at every signature: opening the PKCS#12 (its password-based decryption in node-forge)
 * cost more than the rest of signing and sealing together. It signs as @signpdf's P12Signer does (SHA-256,
 * detached, the signed attributes in the order EU validators expect), from the cached key.
 */
// @signpdf/signpdf re-exports the Signer class its sign() checks for (instanceof), from @signpdf/utils.
import { constants, createPrivateKey, privateEncrypt } from "node:crypto";
import { Signer, SignPdfError } from "@signpdf/signpdf";
import forge from "node-forge";

export type ParsedP12 = {
  privateKey: forge.pki.rsa.PrivateKey;
  certificate: forge.pki.Certificate;
  chain: forge.pki.Certificate[];
};

/** The private key and every certificate in the file; the one whose public key matches the private key signs. */
export function parseP12(p12: Buffer, passphrase: string): ParsedP12 {
  const parsed = forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(p12.toString("binary")), false, passphrase);
  const chain = (parsed.getBags({ bagType: forge.pki.oids.certBag })[forge.pki.oids.certBag] ?? []).flatMap((bag) =>
    bag.cert ? [bag.cert] : [],
  );
  const keyBags = [
    ...(parsed.getBags({ bagType: forge.pki.oids.pkcs8ShroudedKeyBag })[forge.pki.oids.pkcs8ShroudedKeyBag] ?? []),
    ...(parsed.getBags({ bagType: forge.pki.oids.keyBag })[forge.pki.oids.keyBag] ?? []),
  ];
  const privateKey = keyBags[0]?.key as forge.pki.rsa.PrivateKey | undefined;
  if (!privateKey) throw new SignPdfError("The PKCS#12 file holds no private key.", SignPdfError.TYPE_INPUT);
  const certificate = chain.find((cert) => {
    const publicKey = cert.publicKey as forge.pki.rsa.PublicKey;
    return privateKey.n.compareTo(publicKey.n) === 0 && privateKey.e.compareTo(publicKey.e) === 0;
  });
  if (!certificate)
    throw new SignPdfError("Failed to find a certificate that matches the private key.", SignPdfError.TYPE_INPUT);
  return { privateKey, certificate, chain };
}

/** DigestInfo's DER before a SHA-256 hash (RFC 8017, 9.2): what RSASSA-PKCS1-v1_5 signs with the hash. */
const SHA256_DIGEST_INFO = Buffer.from("3031300d060960864801650304020105000420", "hex");

/**
 * The private key as forge's PKCS#7 signer calls it (`key.sign(md, "RSASSA-PKCS1-V1_5")`), signing with Node's
 * crypto: forge's RSA in JavaScript took 47 ms a signature, about a third of signing and sealing a 10-page NDA,
 * and OpenSSL 1.4 ms. The signature is the same bytes (PKCS#1 v1.5 is deterministic).
 */
function nativeSigningKey(privateKey: forge.pki.rsa.PrivateKey) {
  const key = createPrivateKey(forge.pki.privateKeyToPem(privateKey));
  return {
    sign(md: forge.md.MessageDigest) {
      const digestInfo = Buffer.concat([SHA256_DIGEST_INFO, Buffer.from(md.digest().getBytes(), "binary")]);
      return privateEncrypt({ key, padding: constants.RSA_PKCS1_PADDING }, digestInfo).toString("binary");
    },
  };
}

export class ParsedKeySigner extends Signer {
  private readonly signingKey: ReturnType<typeof nativeSigningKey>;

  constructor(private readonly key: ParsedP12) {
    super();
    this.signingKey = nativeSigningKey(key.privateKey);
  }

  async sign(pdfBuffer: Buffer, signingTime?: Date): Promise<Buffer> {
    const p7 = forge.pkcs7.createSignedData();
    p7.content = forge.util.createBuffer(pdfBuffer.toString("binary"));
    for (const cert of this.key.chain) p7.addCertificate(cert);
    p7.addSigner({
      // forge's typings want its own key; it only ever calls sign(md, scheme) on it.
      key: this.signingKey as unknown as forge.pki.rsa.PrivateKey,
      certificate: this.key.certificate,
      digestAlgorithm: forge.pki.oids.sha256,
      authenticatedAttributes: [
        { type: forge.pki.oids.contentType, value: forge.pki.oids.data },
        // forge's typings want a string; it writes a Date as UTCTime, as P12Signer passes it.
        { type: forge.pki.oids.signingTime, value: (signingTime ?? new Date()) as unknown as string },
        { type: forge.pki.oids.messageDigest },
      ],
    });
    p7.sign({ detached: true });
    return Buffer.from(forge.asn1.toDer(p7.toAsn1()).getBytes(), "binary");
  }
}
