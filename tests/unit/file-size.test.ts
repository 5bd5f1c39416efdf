import { formatFileSize } from "~/lib/file-size";

it.each([
  [1, "1 byte"],
  [999, "999 bytes"],
  [1459, "1.5 kB"],
  [248_694, "249 kB"],
  [1_400_000, "1.4 MB"],
  [50 * 1024 * 1024, "52 MB"],
  [1024 * 1024 * 1024, "1.1 GB"],
])("%d bytes read as %s", (bytes, words) => {
  expect(formatFileSize(bytes)).toBe(words);
});
