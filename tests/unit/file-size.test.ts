import { formatFileSize } from "~/lib/file-size";

it.each([
  [1, "1 byte"],
  [1023, "1023 bytes"],
  [1459, "1.4 KB"],
  [248_694, "243 KB"],
  [1_400_000, "1.3 MB"],
  [50 * 1024 * 1024, "50 MB"],
  [1024 * 1024 * 1024, "1 GB"],
])("%d bytes read as %s", (bytes, words) => {
  expect(formatFileSize(bytes)).toBe(words);
});
