/**
 * The lint and format checks that `npm test` runs, shown to refuse what they exist to refuse:
 * an unused variable, an import that runs up the layers (docs/architecture.md), and a line
 * Prettier would write differently. The planted code is linted as text; no file is written.
 */
import path from "node:path";
import { ESLint } from "eslint";
import prettier from "prettier";

const root = path.resolve(import.meta.dirname, "../..");
const eslint = new ESLint({ cwd: root });

async function ruleIdsFor(code: string, file: string) {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result.messages.map((message) => message.ruleId);
}

describe("npm run lint", () => {
  it("passes clean code", async () => {
    const code = 'import { now } from "~/server/clock.server";\n\nexport const later = () => now() + 1;\n';
    expect(await ruleIdsFor(code, "app/models/planted.server.ts")).toEqual([]);
  });

  it("refuses an unused variable", async () => {
    const code = "export function answer() {\n  const unused = 1;\n  return 42;\n}\n";
    expect(await ruleIdsFor(code, "app/models/planted.server.ts")).toContain("@typescript-eslint/no-unused-vars");
  });

  it.each([
    ["app/server/planted.server.ts", "~/models/account/user.server"],
    ["app/models/planted.server.ts", "~/http/auth.server"],
    ["app/models/library/planted.server.ts", "~/openapi/api-contract.server"],
    ["app/openapi/planted.server.ts", "~/http/auth.server"],
    ["app/content/planted.ts", "~/lib/meta"],
    ["app/components/planted.tsx", "~/models/account/user.server"],
    ["app/lib/planted.ts", "~/server/clock.server"],
  ])("refuses an upward import: %s importing %s", async (file, from) => {
    const code = `import * as above from "${from}";\n\nexport const planted = above;\n`;
    expect(await ruleIdsFor(code, file)).toContain("import-x/no-restricted-paths");
  });
});

describe("npm run format:check", () => {
  it("refuses a misformatted line and passes the formatted one", async () => {
    const options = { ...(await prettier.resolveConfig(path.join(root, "app/planted.ts"))), filepath: "planted.ts" };
    expect(await prettier.check("const value = {a:1}\n", options)).toBe(false);
    expect(await prettier.check("const value = { a: 1 };\n", options)).toBe(true);
  });
});
