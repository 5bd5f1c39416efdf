/** A file's size in words: "812 bytes", "14 KB", "1.4 MB", "1.2 GB" (units of 1024, as the upload limits are said). */
export function formatFileSize(bytes: number): string {
  const units = ["KB", "MB", "GB"] as const;
  if (bytes < 1024) return `${bytes} ${bytes === 1 ? "byte" : "bytes"}`;
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const shown = value < 10 ? Math.round(value * 10) / 10 : Math.round(value);
  return `${shown} ${units[unit]}`;
}
