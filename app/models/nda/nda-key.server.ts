/** The firm's NDA signing key, read once from its configured (or, locally, generated) PKCS#12 file. */
import { firmSettings } from "~/content/firm";
import { getEnv } from "~/server/env.server";
import { loadSigningKey, type SigningKey } from "~/server/nda-signing-key.server";

let cached: { path: string; key: SigningKey } | undefined;

export function ndaSigningKey(): SigningKey {
  const setting = getEnv().nda.signingKey;
  // The production rules refuse to serve without one; only a script could get here.
  if (!setting) throw new Error("NDA_SIGNING_P12 is not set: signed NDAs cannot be sealed.");
  if (cached?.path !== setting.p12Path) {
    cached = { path: setting.p12Path, key: loadSigningKey(setting, `${firmSettings.name} NDA seal`) };
  }
  return cached.key;
}
