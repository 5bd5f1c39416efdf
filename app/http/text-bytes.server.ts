/**
 * A long text answer as the bytes a Response is given. Given the string itself, the Response first walks
 * it character by character for lone surrogates (the Fetch standard's USVString), then encodes it anyway:
 * for get_investors' 10,000 investors the walk alone was about a tenth of the server's time. Buffer.from
 * encodes in one pass and writes a lone surrogate as U+FFFD, as that walk would have made it.
 */
export function textBytes(text: string): Uint8Array<ArrayBuffer> {
  return Buffer.from(text);
}
