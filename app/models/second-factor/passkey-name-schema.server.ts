/** A passkey's name as its owner types it: one visible line of at most PASSKEY_NAME_MAX_LENGTH characters. */
import { z } from "zod";
import { PASSKEY_NAME_MAX_LENGTH, passkeyNames } from "~/content/account-sessions";

/**
 * Controls, format characters (zero-width spaces and joiners, text-direction marks and overrides, the
 * byte-order mark) and the line and paragraph separators: invisible, they would let one name read as another.
 */
const INVISIBLE_CHARACTERS = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

export const passkeyNameSchema = z
  .string({ error: passkeyNames.empty })
  .refine((name) => !INVISIBLE_CHARACTERS.test(name), { error: passkeyNames.invisible, abort: true })
  .transform((name) => name.normalize("NFC").replace(/\s+/g, " ").trim())
  .pipe(
    z
      .string()
      .min(1, { error: passkeyNames.empty })
      .refine((name) => [...name].length <= PASSKEY_NAME_MAX_LENGTH, { error: passkeyNames.tooLong }),
  );
