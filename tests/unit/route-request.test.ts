/**
 * What a loader or action receives as its request, with patches/@remix-run+server-runtime+2.17.5.patch:
 * the request itself when Remix has nothing to strip, and otherwise the same copy as before.
 */
import { createRequestHandler, type ServerBuild } from "@remix-run/node";

type Seen = { request: Request; url: string; body?: unknown };

function buildWith(seen: Seen[]): ServerBuild {
  const remember = async ({ request }: { request: Request }) => {
    const body = request.method === "POST" ? await request.json() : undefined;
    seen.push({ request, url: request.url, body });
    return Response.json({ ok: true });
  };
  return {
    mode: "production",
    entry: { module: { default: () => new Response("no documents here", { status: 500 }) } },
    routes: {
      root: { id: "root", path: "", module: {} },
      "routes/thing": {
        id: "routes/thing",
        parentId: "root",
        path: "thing",
        module: { loader: remember, action: remember },
      },
    },
    assets: { entry: { module: "/entry.js", imports: [] }, routes: {}, url: "/manifest.js", version: "1" },
    publicPath: "/build/",
    assetsBuildDirectory: "public/build",
    future: {},
    isSpaMode: false,
  } as unknown as ServerBuild;
}

async function call(url: string, init?: RequestInit) {
  const seen: Seen[] = [];
  const handler = createRequestHandler(buildWith(seen), "production");
  const request = new Request(url, init);
  const response = await handler(request);
  expect(response.status).toBe(200);
  expect(seen).toHaveLength(1);
  return { request, seen: seen[0] };
}

describe("the request a route receives", () => {
  it("is the request itself when there is nothing to strip", async () => {
    const { request, seen } = await call("http://localhost/thing?page=2&q=smith");
    expect(seen.request).toBe(request);
    expect(seen.url).toBe("http://localhost/thing?page=2&q=smith");
  });

  it("is the request itself for an action, whose JSON body the route still reads", async () => {
    const { request, seen } = await call("http://localhost/thing", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email: "a@example.com" }),
    });
    expect(seen.request).toBe(request);
    expect(seen.body).toEqual({ email: "a@example.com" });
  });

  it("is a copy without Remix's own _data parameter on a data request", async () => {
    const { request, seen } = await call("http://localhost/thing?page=2&_data=routes%2Fthing");
    expect(seen.request).not.toBe(request);
    expect(seen.url).toBe("http://localhost/thing?page=2");
  });

  it("keeps the query as URLSearchParams re-serialises it, as Remix always passed it on", async () => {
    const { request, seen } = await call("http://localhost/thing?q=a%20b,c");
    expect(seen.request).not.toBe(request);
    expect(seen.url).toBe("http://localhost/thing?q=a+b%2Cc");
  });
});
