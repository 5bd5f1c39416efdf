/**
 * The certificate a signed NDA is sealed under (docs/decisions/0034-nda-signed-in-the-portal.md): a PKCS#12
 * file and its passphrase, configured as NDA_SIGNING_P12 and NDA_SIGNING_P12_PASSPHRASE. A local run with
 * neither set gets a self-signed one generated into the data folder, once, with a warning; the production
 * rules refuse to start without them (production-rules.server.ts).
 */
import { createHash, generateKeyPairSync, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import forge from "node-forge";

export type SigningKey = {
  p12: Buffer;
  passphrase: string;
  /** The certificate's subject as a reader shows it, and its SHA-256 fingerprint (hex), for the record. */
  subject: string;
  fingerprint: string;
};

export type SigningKeySetting = { p12Path: string; passphrase: string; generated: boolean };

/**
 * A self-signed certificate and its key as PKCS#12, valid for `years`: what a local run and the tests seal
 * with. Node makes the key (forge's own key generation takes seconds); forge writes the certificate.
 */
export function selfSignedP12(commonName: string, passphrase: string, years = 10): Buffer {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const key = forge.pki.privateKeyFromPem(privateKey.export({ type: "pkcs1", format: "pem" }).toString());
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.setRsaPublicKey(key.n, key.e);
  cert.serialNumber = `01${randomBytes(8).toString("hex")}`;
  cert.validity.notBefore = new Date(Date.now() - 60_000);
  cert.validity.notAfter = new Date(Date.now() + years * 365 * 24 * 3600 * 1000);
  const subject = [{ name: "commonName", value: commonName }];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.setExtensions([
    { name: "basicConstraints", cA: false },
    { name: "keyUsage", digitalSignature: true, nonRepudiation: true },
  ]);
  cert.sign(key, forge.md.sha256.create());
  const asn1 = forge.pkcs12.toPkcs12Asn1(key, [cert], passphrase, { algorithm: "aes256" });
  return Buffer.from(forge.asn1.toDer(asn1).getBytes(), "binary");
}

/** The configured key, or the local run's generated one (made now if it is not there yet). */
export function loadSigningKey(setting: SigningKeySetting, commonName: string): SigningKey {
  if (setting.generated && !fs.existsSync(setting.p12Path))
    generateInto(setting.p12Path, setting.passphrase, commonName);
  const p12 = fs.readFileSync(setting.p12Path);
  return { p12, passphrase: setting.passphrase, ...describeP12(p12, setting.passphrase) };
}

/** The certificate's subject and fingerprint; throws if the passphrase does not open the file or it holds no key. */
export function describeP12(p12: Buffer, passphrase: string): { subject: string; fingerprint: string } {
  const parsed = forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(p12.toString("binary")), passphrase);
  const certs = parsed.getBags({ bagType: forge.pki.oids.certBag })[forge.pki.oids.certBag] ?? [];
  const keys = [
    ...(parsed.getBags({ bagType: forge.pki.oids.pkcs8ShroudedKeyBag })[forge.pki.oids.pkcs8ShroudedKeyBag] ?? []),
    ...(parsed.getBags({ bagType: forge.pki.oids.keyBag })[forge.pki.oids.keyBag] ?? []),
  ];
  const cert = certs[0]?.cert;
  if (!cert || keys.length === 0) throw new Error("NDA_SIGNING_P12 holds no certificate with its private key.");
  const der = Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(cert)).getBytes(), "binary");
  return {
    subject: cert.subject.attributes.map((a) => `${a.shortName ?? a.name}=${String(a.value)}`).join(", "),
    fingerprint: createHash("sha256").update(der).digest("hex"),
  };
}

/** Written whole beside it, then linked into place: of two processes starting at once, one certificate wins. */
function generateInto(file: string, passphrase: string, commonName: string) {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const partial = `${file}.${process.pid}.partial`;
  fs.writeFileSync(partial, selfSignedP12(commonName, passphrase), { mode: 0o600 });
  try {
    fs.linkSync(partial, file);
    console.warn(
      `NDA_SIGNING_P12 is not set: generated a self-signed certificate into ${file}. Set NDA_SIGNING_P12 and NDA_SIGNING_P12_PASSPHRASE in production.`,
    );
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    fs.rmSync(partial, { force: true });
  }
}
