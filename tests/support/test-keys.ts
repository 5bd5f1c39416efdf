/**
 * The keys every test server and script is configured with (random, so that the production rules'
 * strength check accepts them): a script run against a test's database must seal and open what the
 * app sealed, and a spec that plants a secret in the database seals it as the server would. The NDA's
 * signing certificate is a self-signed one made once per machine into the temporary folder.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { selfSignedP12 } from "../../app/server/nda-signing-key.server";

const NDA_SIGNING_P12_PASSPHRASE = "test-nda-signing-passphrase";

function testSigningP12(): string {
  const file = path.join(os.tmpdir(), "portal-test-nda-signing.p12");
  if (fs.existsSync(file)) return file;
  const partial = `${file}.${process.pid}.partial`;
  fs.writeFileSync(partial, selfSignedP12("Portal test NDA seal", NDA_SIGNING_P12_PASSPHRASE));
  try {
    fs.linkSync(partial, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    fs.rmSync(partial, { force: true });
  }
  return file;
}

export const TEST_KEYS = {
  AUDIT_KEY: "b41d681bb55b06a80e5486c1e0112bd45d4b633d67dbdb1a0c858e08ebfcb654",
  DATA_KEY: "3c2501fcb9beaf65ad3bb59b8ede111e3c9d9984cdde1c1ed0cffb2817df8f16",
  SESSION_SECRET: "5af999b20f3b14f276fbb3b1a1a96213c02f111a347292988a8b8454f6aeb767",
  NDA_SIGNING_P12: testSigningP12(),
  NDA_SIGNING_P12_PASSPHRASE,
} as const;
