import { currentRequestId, requestIdFor, runWithRequestId } from "~/server/request-context.server";

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
