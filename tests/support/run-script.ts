/** Runs one of scripts/*.ts as an operator would (`npm run …`): a child process under tsx, its output collected. */
import { spawn } from "node:child_process";
import path from "node:path";
import { TEST_KEYS } from "./test-keys";

const TSX = path.resolve("node_modules/.bin/tsx");

export type ScriptRun = { code: number | null; output: string };

export function runScript(script: string, args: string[], env: Record<string, string>): Promise<ScriptRun> {
  return new Promise((resolve) => {
    const child = spawn(TSX, [path.resolve("scripts", script), ...args], {
      env: {
        NODE_ENV: "production",
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "/tmp",
        ...TEST_KEYS,
        ...env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk));
    child.on("close", (code) => resolve({ code, output }));
  });
}
