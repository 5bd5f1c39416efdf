/**
 * docs/architecture.md is a map a newcomer follows: every `app/…` path it names must be there, and its
 * diagram of the rooms must say what the lint rule of the layers (eslint.config.js) enforces.
 */
import fs from "node:fs";
import path from "node:path";
import { ESLint } from "eslint";

const root = path.resolve(import.meta.dirname, "../..");
const doc = fs.readFileSync(path.join(root, "docs/architecture.md"), "utf8");

/** Every file and folder below app/, as "app/…" (a folder with its trailing slash). */
function entriesBelow(dir: string): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = `${dir}/${entry.name}`;
    return entry.isDirectory() ? [`${relative}/`, ...entriesBelow(relative)] : [relative];
  });
}

/** The `app/…` paths a text names, its sentence's punctuation taken off. */
function appPathsIn(text: string): string[] {
  const named = new Set<string>();
  for (const [found] of text.matchAll(/(?<![\w/.~-])app\/[\w.\-/*()$[\]]*/g)) {
    let name = found;
    for (;;) {
      const trimmed = name.replace(/[.,;:]+$/, "");
      const unbalanced = (trimmed.match(/\)/g) ?? []).length > (trimmed.match(/\(/g) ?? []).length;
      name = unbalanced ? trimmed.slice(0, -1) : trimmed;
      if (!unbalanced) break;
    }
    named.add(name);
  }
  return [...named];
}

/** A named path as a pattern: `*` any part of a name, `(x)` an optional part, a folder with or without its slash. */
function patternOf(name: string): RegExp {
  const source = name
    .replace(/\/$/, "")
    .replace(/[.+?^${}|[\]\\]/g, "\\$&")
    .replace(/\*/g, "[^/]*")
    .replace(/\(([^()]*)\)/g, "(?:$1)?");
  return new RegExp(`^${source}/?$`);
}

const entries = ["app/", ...entriesBelow("app")];
const missing = (names: string[]) => names.filter((name) => !entries.some((entry) => patternOf(name).test(entry)));

describe("the paths docs/architecture.md names", () => {
  it("are all there", () => {
    const named = appPathsIn(doc);
    expect(named.length).toBeGreaterThan(50);
    expect(missing(named)).toEqual([]);
  });

  it("are read as the document means them, and one that is not there is caught", () => {
    expect(appPathsIn("see `app/http/auth.server.ts`, then app/models/library/ (its folder).")).toEqual([
      "app/http/auth.server.ts",
      "app/models/library/",
    ]);
    expect(
      missing(["app/models/*/*-schema(s).server.ts", "app/routes/financing.investors.$id(.server).ts(x)"]),
    ).toEqual([]);
    expect(missing(["app/models/materials.server.ts", "app/http/api-contract.server.ts"])).toEqual([
      "app/models/materials.server.ts",
      "app/http/api-contract.server.ts",
    ]);
  });
});

describe("the diagram of the rooms", () => {
  const rooms = ["routes", "http", "openapi", "models", "server", "components", "hooks", "lib", "content"];

  /** The rooms each room reaches along the diagram's arrows. */
  function reachedInDiagram(): Map<string, Set<string>> {
    const mermaid = doc.match(/```mermaid\n([\s\S]*?)```/)?.[1] ?? "";
    const roomOf = new Map<string, string>();
    for (const [, node, room] of mermaid.matchAll(/^\s*(\w+)\["app\/(\w+)\//gm)) roomOf.set(node, room);
    const arrows = [...mermaid.matchAll(/^\s*(\w+) --> (\w+)$/gm)]
      .filter(([, from, to]) => roomOf.has(from) && roomOf.has(to))
      .map(([, from, to]) => [roomOf.get(from)!, roomOf.get(to)!] as const);
    const reached = new Map(rooms.map((room) => [room, new Set<string>()]));
    for (let grew = true; grew;) {
      grew = false;
      for (const [from, to] of arrows) {
        for (const next of [to, ...reached.get(to)!]) {
          if (!reached.get(from)!.has(next)) {
            reached.get(from)!.add(next);
            grew = true;
          }
        }
      }
    }
    return reached;
  }

  /** The rooms each room may import from, by the lint rule's zones. */
  async function allowedByLint(): Promise<Map<string, Set<string>>> {
    const config = await new ESLint({ cwd: root }).calculateConfigForFile(path.join(root, "app/models/x.server.ts"));
    const [, { zones }] = config.rules["import-x/no-restricted-paths"] as [
      unknown,
      { zones: { target: string; from: string }[] },
    ];
    const refused = new Set(
      zones.map(({ target, from }) => `${target.replace("./app/", "")}>${from.replace("./app/", "")}`),
    );
    return new Map(
      rooms.map((room) => [room, new Set(rooms.filter((other) => other !== room && !refused.has(`${room}>${other}`)))]),
    );
  }

  it("draws every room, and its arrows reach exactly the rooms the lint rule lets each import", async () => {
    const reached = reachedInDiagram();
    expect([...reached.keys()].sort()).toEqual([...rooms].sort());
    const allowed = await allowedByLint();
    for (const room of rooms)
      expect([room, [...reached.get(room)!].sort()]).toEqual([room, [...allowed.get(room)!].sort()]);
  });
});
