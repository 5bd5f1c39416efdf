/**
 * A text answer as the bytes a Response is given. Given the string itself, the Response first walks it
 * character by character for lone surrogates (the Fetch standard's USVString), then encodes it: two passes
 * over the text where Buffer.from makes one, writing a lone surrogate as U+FFFD as the walk would have.
 */
export function textBytes(text: string): Uint8Array<ArrayBuffer> {
  return Buffer.from(text);
}
