import fs from "node:fs";

const packageJson = JSON.parse(fs.readFileSync("package.json", "utf8")) as { engines: { node: string } };

describe("the runtime", () => {
  it("is Node 24 LTS, the version package.json and .nvmrc name", () => {
    const major = Number(process.versions.node.split(".")[0]);
    expect(major).toBe(24);
    expect(packageJson.engines.node).toMatch(/^>=24\b/);
    expect(fs.readFileSync(".nvmrc", "utf8").trim()).toBe("24");
  });

  it("loads better-sqlite3 13 or later, whose statements survive garbage collection on Node 24", async () => {
    const { default: Database } = await import("better-sqlite3");
    const version = JSON.parse(fs.readFileSync("node_modules/better-sqlite3/package.json", "utf8")) as {
      version: string;
    };
    expect(Number(version.version.split(".")[0])).toBeGreaterThanOrEqual(13);
    const db = new Database(":memory:");
    for (let i = 0; i < 1000; i++) db.prepare(`select ${i} as n`).get();
    db.close();
  });
});
