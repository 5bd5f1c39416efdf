// @ts-check
// How a secret is stored encrypted at rest (the authenticator apps' TOTP secrets): a stored format,
// shared by the migration that encrypted the secrets already there and by the app. Changing it needs
// a new migration.
//
// "v1.<key id>.<iv>.<ciphertext>.<tag>", each part base64url: AES-256-GCM under a key derived from a
// DATA_KEY setting (HKDF-SHA256), with a random 96-bit IV, and the row the secret belongs to as
// additional data, so a ciphertext copied onto another account's row does not decrypt there. The
// key id (8 hex characters of the derived key's SHA-256) names the key, so that DATA_KEY can hold
// the new key and the old ones while secrets are re-encrypted.
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from "node:crypto";

const FORMAT = "v1";

/**
 * The AES key of a DATA_KEY setting.
 * @param {string} setting
 * @returns {Buffer}
 */
function aesKeyOf(setting) {
  return Buffer.from(hkdfSync("sha256", setting, "", "secret-box:v1", 32));
}

/**
 * The id a stored secret names its key by.
 * @param {string} setting
 * @returns {string}
 */
export function dataKeyId(setting) {
  return createHash("sha256").update(aesKeyOf(setting)).digest("hex").slice(0, 8);
}

/**
 * @param {string} value
 * @returns {boolean} whether the value is in this format (and not a secret stored in clear)
 */
export function isSealed(value) {
  return value.startsWith(`${FORMAT}.`) && value.split(".").length === 5;
}

/**
 * @param {string} setting the DATA_KEY that encrypts
 * @param {string} plaintext
 * @param {string} context what the secret belongs to, e.g. "totp:<user id>"
 * @returns {string}
 */
export function sealSecret(setting, plaintext, context) {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", aesKeyOf(setting), iv);
  cipher.setAAD(Buffer.from(context, "utf8"));
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return [
    FORMAT,
    dataKeyId(setting),
    iv.toString("base64url"),
    ciphertext.toString("base64url"),
    cipher.getAuthTag().toString("base64url"),
  ].join(".");
}

/**
 * Decrypts a sealed secret with whichever of the settings it names. Throws when none of them is its
 * key, or when it was changed (or moved to another row): the tag does not match.
 * @param {string[]} settings every DATA_KEY that may have encrypted it
 * @param {string} sealed
 * @param {string} context
 * @returns {string}
 */
export function openSecret(settings, sealed, context) {
  const [format, keyId, iv, ciphertext, tag] = sealed.split(".");
  if (format !== FORMAT || tag === undefined) throw new Error("A stored secret is not in the encrypted format.");
  const setting = settings.find((candidate) => dataKeyId(candidate) === keyId);
  if (!setting) throw new Error(`A stored secret was encrypted under a key (${keyId}) that DATA_KEY no longer holds.`);
  const decipher = createDecipheriv("aes-256-gcm", aesKeyOf(setting), Buffer.from(iv, "base64url"));
  decipher.setAAD(Buffer.from(context, "utf8"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
}

/**
 * The stored secret's key id.
 * @param {string} sealed
 * @returns {string}
 */
export function sealedKeyId(sealed) {
  return sealed.split(".")[1] ?? "";
}
