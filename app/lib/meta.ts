import { firm } from "~/content/firm";

/** Every page's own title and description. */
export function pageMeta(title: string, description: string) {
  return [{ title: `${title} | ${firm.shortName}` }, { name: "description", content: description }];
}
