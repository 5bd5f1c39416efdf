import { currentRequestId, requestIdFor, runWithRequestId, sharedWhileUnderWay } from "~/server/request-context.server";

describe("request ids", () => {
  const newId = () => "generated";

  it("keeps a trusted proxy's X-Request-Id, and only then", () => {
    expect(requestIdFor("lb-7f3a.42", true, newId)).toBe("lb-7f3a.42");
    expect(requestIdFor("lb-7f3a.42", false, newId)).toBe("generated");
    expect(requestIdFor(undefined, true, newId)).toBe("generated");
  });

  it("replaces an id that is not a plain token", () => {
    for (const forged of ['x", "level": "info', "a b", "", "x".repeat(129), "id\nnext"]) {
      expect(requestIdFor(forged, true, newId)).toBe("generated");
    }
  });

  it("is seen by everything the request starts, however late", async () => {
    expect(currentRequestId()).toBeUndefined();
    const seen = await runWithRequestId("r-1", async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      return new Promise<string | undefined>((resolve) => setImmediate(() => resolve(currentRequestId())));
    });
    expect(seen).toBe("r-1");
    expect(currentRequestId()).toBeUndefined();
  });
});

describe("reads shared while under way", () => {
  /** A read that counts its runs and answers when told to. */
  function countedRead() {
    let runs = 0;
    const finishers: ((value: string) => void)[] = [];
    const read = () => {
      runs += 1;
      return new Promise<string>((resolve) => finishers.push(resolve));
    };
    return { read, runs: () => runs, finish: (value: string) => finishers.splice(0).forEach((done) => done(value)) };
  }

  it("runs a read once for the loaders of one request that ask for it at once", async () => {
    const session = countedRead();
    const answers = await runWithRequestId("r-2", async () => {
      const asked = [sharedWhileUnderWay("session:a", session.read), sharedWhileUnderWay("session:a", session.read)];
      session.finish("alice");
      return Promise.all(asked);
    });
    expect(answers).toEqual(["alice", "alice"]);
    expect(session.runs()).toBe(1);
  });

  it("reads afresh once the read has ended, and keeps different keys apart", async () => {
    const session = countedRead();
    await runWithRequestId("r-3", async () => {
      const first = sharedWhileUnderWay("session:a", session.read);
      const other = sharedWhileUnderWay("session:b", session.read);
      session.finish("before");
      expect(await first).toBe("before");
      expect(await other).toBe("before");
      const later = sharedWhileUnderWay("session:a", session.read);
      session.finish("after");
      expect(await later).toBe("after");
    });
    expect(session.runs()).toBe(3);
  });

  it("shares nothing between requests, nor outside one", async () => {
    const session = countedRead();
    const inOne = runWithRequestId("r-4", () => sharedWhileUnderWay("session:a", session.read));
    const inAnother = runWithRequestId("r-4", () => sharedWhileUnderWay("session:a", session.read));
    const outside = sharedWhileUnderWay("session:a", session.read);
    session.finish("x");
    await Promise.all([inOne, inAnother, outside]);
    expect(session.runs()).toBe(3);
  });

  it("gives a failed read's error to every loader that shared it, and lets the next one try again", async () => {
    let runs = 0;
    const failing = () => {
      runs += 1;
      return Promise.reject(new Error("database away"));
    };
    await runWithRequestId("r-5", async () => {
      const asked = [sharedWhileUnderWay("session:a", failing), sharedWhileUnderWay("session:a", failing)];
      for (const answer of await Promise.allSettled(asked)) expect(answer).toMatchObject({ status: "rejected" });
      await expect(sharedWhileUnderWay("session:a", failing)).rejects.toThrow("database away");
    });
    expect(runs).toBe(2);
  });
});
