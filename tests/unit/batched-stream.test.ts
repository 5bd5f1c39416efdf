import { batchedPerTurn } from "~/utils/batched-stream.server";

/** Collects what comes out of the stream, one entry per chunk, until it ends. */
function collect(stream: ReturnType<typeof batchedPerTurn>) {
  const chunks: string[] = [];
  stream.on("data", (chunk: Buffer) => chunks.push(chunk.toString("utf8")));
  return new Promise<string[]>((resolve) => stream.on("end", () => resolve(chunks)));
}

describe("batchedPerTurn", () => {
  it("sends what was written in one turn as one chunk, in order", async () => {
    const stream = batchedPerTurn();
    const out = collect(stream);
    for (const piece of ["<html>", "<body>", "é", "</body>", "</html>"]) stream.write(Buffer.from(piece));
    stream.end();
    expect(await out).toEqual(["<html><body>é</body></html>"]);
  });

  it("holds nothing past the turn it was written in", async () => {
    const stream = batchedPerTurn();
    const out = collect(stream);
    stream.write(Buffer.from("shell "));
    stream.write(Buffer.from("ready"));
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    stream.write(Buffer.from(" later"));
    stream.end(Buffer.from(" end"));
    expect(await out).toEqual(["shell ready", " later end"]);
  });

  it("ends cleanly with nothing written", async () => {
    const stream = batchedPerTurn();
    const out = collect(stream);
    stream.end();
    expect(await out).toEqual([]);
  });
});
