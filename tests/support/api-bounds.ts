/**
 * The bounds the OpenAPI document sets, as the client types generated from it (`npm run api:types`)
 * carry them. A type cannot count characters, so a text field the server bounds takes only text that
 * went through `boundedText`, which counts; a bounded integer with a short range (get_investors' `limit`)
 * is generated as the union of its values, so a number outside it does not compile.
 */
declare const bound: unique symbol;

/** Text checked to hold at most `Max` characters: the only text a field with that `maxLength` takes. */
export type BoundedText<Max extends number> = string & { readonly [bound]: Max };

/** `value` as a field bounded to `maxLength` characters (and `minLength`, 0 unless given) takes it; throws otherwise. */
export function boundedText<Max extends number>(value: string, maxLength: Max, minLength = 0): BoundedText<Max> {
  // Counted in UTF-16 units, as the server counts (zod): for a character outside the BMP that is two, where
  // the document's JSON Schema counts one (docs/decisions/0016), so text counted here the server always takes.
  const length = value.length;
  if (length > maxLength || length < minLength)
    throw new RangeError(
      `${length} characters (UTF-16 units), where the document allows ${minLength} to ${maxLength}.`,
    );
  return value as BoundedText<Max>;
}
