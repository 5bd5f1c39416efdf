/** Items a piece: a hundred investors make some 25,000 characters. */
const ITEMS_A_PIECE = 100;

/**
 * `items` as a JSON array in UTF-8 bytes, between `before` and `after`, written a hundred items at a time.
 * V8 writes a short JSON string several times faster than a long one, and a string of megabytes is itself
 * costly to make and to encode. For 10,000 investors one JSON.stringify and its bytes took about 50 ms;
 * in pieces of a hundred, about 10 (docs/performance.md, "A long JSON list in pieces").
 */
export function jsonArrayBytes(items: readonly unknown[], { before = "", after = "" } = {}): Buffer<ArrayBuffer> {
  const pieces = [Buffer.from(`${before}[`)];
  for (let start = 0; start < items.length; start += ITEMS_A_PIECE) {
    const json = JSON.stringify(items.slice(start, start + ITEMS_A_PIECE));
    pieces.push(Buffer.from(`${start === 0 ? "" : ","}${json.slice(1, -1)}`));
  }
  pieces.push(Buffer.from(`]${after}`));
  return Buffer.concat(pieces);
}
