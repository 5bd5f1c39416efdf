/**
 * The README's first command as a newcomer runs it: `npm start` from a shell whose `node` is the
 * machine's own, which may be older than the product's Node 24. It brings Node 24 itself
 * (scripts/with-node24.sh) and serves the site on it. The second command, `npm test`, is proved the
 * same way by every CI run (.ci/run calls it with the machine's node).
 */
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { ensureBuilt, BUILD_DIR } from "./support/private-server";

/** An environment with nothing inherited (Remix's typings claim NODE_ENV is always set; here it is not). */
const bare = (env: Record<string, string>) => env as unknown as NodeJS.ProcessEnv;

/** PATH as the machine has it: without the Node 24 this run was given (.tools/node). */
const machinePath = (process.env.PATH ?? "")
  .split(path.delimiter)
  .filter((dir) => !dir.includes(`${path.sep}.tools${path.sep}node${path.sep}`))
  .join(path.delimiter);

test("npm start, from the machine's own node, brings Node 24 and serves the site", async () => {
  test.setTimeout(120_000);
  ensureBuilt();
  const machineNode = execFileSync("node", ["--version"], {
    env: bare({ PATH: machinePath }),
    encoding: "utf8",
  }).trim();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "portal-first-run-"));
  const port = String(3700 + Math.floor(Math.random() * 200));
  // Nothing configured but where to listen and keep its data, as on a fresh clone.
  const child = spawn("npm", ["start"], {
    env: bare({
      PATH: machinePath,
      HOME: process.env.HOME ?? dir,
      PORT: port,
      DATABASE_PATH: path.join(dir, "p.sqlite"),
      BUILD_DIR,
    }),
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk));
  try {
    await expect.poll(() => output.includes('"event":"server.listening"'), { timeout: 90_000 }).toBe(true);
    const listening = JSON.parse(output.split("\n").find((line) => line.includes('"server.listening"'))!) as {
      node: string;
      message: string;
    };
    expect(listening.node, `the machine's node is ${machineNode}`).toMatch(/^24\./);
    expect(listening.message).toBe(`Open http://localhost:${port}/ in a browser.`);
    // And in plain words on a line of its own, not only inside the JSON.
    expect(output).toContain(`\nThe site is running. Open http://localhost:${port}/ in a browser.\n`);
    expect((await fetch(`http://localhost:${port}/`)).status).toBe(200);
    expect(output).not.toMatch(/npm warn/i);
  } finally {
    process.kill(-child.pid!, "SIGTERM");
    await new Promise((resolve) => child.once("exit", resolve));
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
