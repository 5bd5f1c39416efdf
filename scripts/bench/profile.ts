/** A quick look at a --cpu-prof profile: the functions with the most self time. */
import fs from "node:fs";
import path from "node:path";

type Node = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
};
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[] };

export function summarizeProfiles(dir: string, top = 25) {
  if (!fs.existsSync(dir)) return console.log("(no CPU profile was written)");
  for (const name of fs.readdirSync(dir).filter((file) => file.endsWith(".cpuprofile"))) {
    const profile = JSON.parse(fs.readFileSync(path.join(dir, name), "utf8")) as Profile;
    const byNode = new Map(profile.nodes.map((node) => [node.id, node]));
    const parent = new Map<number, number>();
    for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
    const label = (node: Node) => {
      const { functionName, url, lineNumber } = node.callFrame;
      const where = url ? `${url.replace(/^file:\/\//, "").replace(process.cwd() + "/", "")}:${lineNumber + 1}` : "";
      return `${functionName || "(anonymous)"} ${where}`.trim();
    };
    const selfMs = new Map<string, number>();
    const totalMs = new Map<string, number>();
    let total = 0;
    profile.samples.forEach((id, i) => {
      const ms = (profile.timeDeltas[i] ?? 0) / 1000;
      total += ms;
      const key = label(byNode.get(id)!);
      selfMs.set(key, (selfMs.get(key) ?? 0) + ms);
      // Inclusive time: once per function on the stack, however deep the recursion.
      const onStack = new Set<string>();
      for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) onStack.add(label(byNode.get(at)!));
      for (const name of onStack) totalMs.set(name, (totalMs.get(name) ?? 0) + ms);
    });
    const print = (title: string, times: Map<string, number>, filter: (key: string) => boolean) => {
      console.log(`\nCPU profile of the server (${name}), ${title}, of ${(total / 1000).toFixed(1)} s:`);
      for (const [key, ms] of [...times]
        .filter(([key]) => filter(key))
        .sort((a, b) => b[1] - a[1])
        .slice(0, top)) {
        console.log(`${((100 * ms) / total).toFixed(1).padStart(5)}%  ${key}`);
      }
    };
    print(`self time, top ${top}`, selfMs, () => true);
    // Inclusive time of named functions in the app, the build and Remix (what calls the time away).
    print(
      `total time, top ${top} named functions`,
      totalMs,
      (key) => !key.startsWith("(") && /build|app\/|remix|express|compression|kysely/.test(key),
    );
    const copy = path.join(process.cwd(), ".tmp", name);
    fs.mkdirSync(path.dirname(copy), { recursive: true });
    fs.copyFileSync(path.join(dir, name), copy);
    console.log(`(profile kept as ${path.relative(process.cwd(), copy)}; open it in Chrome DevTools)`);
  }
}
