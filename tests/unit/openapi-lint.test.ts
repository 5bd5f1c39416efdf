/**
 * `redocly lint` (Redocly CLI) over the document as /api/openapi.json serves it, with the rules of
 * redocly.yaml: the recommended ones and the stricter ones the document meets. It finds no error and no
 * warning; and it does find a document that breaks a rule.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { servedOpenApiDocument, type OpenApiDocument } from "~/openapi/openapi.server";

type Problem = { ruleId: string; severity: string; message: string; location: { pointer: string }[] };

const ROOT = path.resolve(import.meta.dirname, "../..");
const REDOCLY = path.join(ROOT, "node_modules/.bin/redocly");
const served = servedOpenApiDocument(new URL("https://portal.northbeam.test"));

/** The problems `redocly lint` reports in `document`, as `rule at pointer: message`. */
async function lint(document: OpenApiDocument): Promise<string[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "openapi-lint-"));
  const file = path.join(dir, "openapi.json");
  fs.writeFileSync(file, JSON.stringify(document));
  try {
    const { stdout } = await promisify(execFile)(
      REDOCLY,
      ["lint", file, "--config", path.join(ROOT, "redocly.yaml"), "--format", "json", "--max-problems", "50"],
      // Its telemetry and update notice would reach out to the network.
      { env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" } },
    ).catch((failed: { stdout?: string }) => ({ stdout: failed.stdout ?? "" }));
    const { problems } = JSON.parse(stdout) as { problems: Problem[] };
    return problems.map(
      (problem) => `${problem.severity} ${problem.ruleId} at ${problem.location[0]?.pointer}: ${problem.message}`,
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

test("redocly lint finds no error and no warning in the served document", async () => {
  expect(served.servers).toEqual([{ url: "https://portal.northbeam.test", description: expect.any(String) }]);
  expect(await lint(served)).toEqual([]);
});

test("redocly lint does refuse: a call without a description, a field without an example, no servers", async () => {
  const broken = structuredClone(served);
  delete broken.servers;
  delete broken.paths["/api/auth/login"].post.description;
  delete (broken.components.schemas.LoginRequest.properties as Record<string, { examples?: unknown }>).email.examples;
  const problems = (await lint(broken)).join("\n");
  expect(problems).toMatch(/^error no-empty-servers/m);
  expect(problems).toMatch(/^error operation-description at #\/paths\/~1api~1auth~1login\/post/m);
  expect(problems).toMatch(/^error scalar-property-missing-example at .*LoginRequest\/properties\/email/m);
});
