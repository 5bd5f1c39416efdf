/** Ends a sentence with one period, even when it ends with a name that has its own ("… Holdings Inc."). */
export function sentence(text: string): string {
  return text.endsWith(".") ? text : `${text}.`;
}
