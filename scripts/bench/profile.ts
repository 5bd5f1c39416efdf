/** A quick look at a --cpu-prof profile: the functions with the most self time. */
import fs from "node:fs";
import path from "node:path";

type Node = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number };
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[] };

export function summarizeProfiles(dir: string, top = 25) {
  if (!fs.existsSync(dir)) return console.log("(no CPU profile was written)");
  for (const name of fs.readdirSync(dir).filter((file) => file.endsWith(".cpuprofile"))) {
    const profile = JSON.parse(fs.readFileSync(path.join(dir, name), "utf8")) as Profile;
    const byNode = new Map(profile.nodes.map((node) => [node.id, node]));
    const selfMs = new Map<string, number>();
    let total = 0;
    profile.samples.forEach((id, i) => {
      const node = byNode.get(id)!;
      const { functionName, url, lineNumber } = node.callFrame;
      const where = url ? `${url.replace(/^file:\/\//, "").replace(process.cwd() + "/", "")}:${lineNumber + 1}` : "";
      const key = `${functionName || "(anonymous)"} ${where}`.trim();
      const ms = (profile.timeDeltas[i] ?? 0) / 1000;
      total += ms;
      selfMs.set(key, (selfMs.get(key) ?? 0) + ms);
    });
    console.log(`\nCPU profile of the server (${name}), self time, top ${top} of ${(total / 1000).toFixed(1)} s:`);
    for (const [key, ms] of [...selfMs].sort((a, b) => b[1] - a[1]).slice(0, top)) {
      console.log(`${((100 * ms) / total).toFixed(1).padStart(5)}%  ${key}`);
    }
    const copy = path.join(process.cwd(), ".tmp", name);
    fs.mkdirSync(path.dirname(copy), { recursive: true });
    fs.copyFileSync(path.join(dir, name), copy);
    console.log(`(profile kept as ${path.relative(process.cwd(), copy)}; open it in Chrome DevTools)`);
  }
}
