/**
 * The edge's gate on stamped copies (app/http/copy-gate.server.ts): a credential holds at most its share of
 * copies in flight, the next is refused with the pool's own 429 until one is given back; another credential,
 * another address, a HEAD or a request without a credential are let through untouched.
 */
import { materialsMessages } from "~/content/materials";
import { copyRefusal, enterCopyGate } from "~/http/copy-gate.server";
import { COPIES_IN_FLIGHT_PER_READER, STAMPING_RETRY_AFTER_SECONDS } from "~/server/stamp-pool.server";

const ada = { method: "GET", path: "/financing/materials/42", cookie: "theme=dark; __session=ada-session" };

test("a session's copies beyond its share in flight are refused until one is given back, another session's pass", () => {
  const places = Array.from({ length: COPIES_IN_FLIGHT_PER_READER }, () => enterCopyGate(ada));
  expect(places.every((place) => typeof place === "function")).toBe(true);
  expect(enterCopyGate(ada)).toBe("refuse");
  expect(enterCopyGate({ ...ada, path: "/pdfs/download.pdf" })).toBe("refuse");
  expect(enterCopyGate({ ...ada, path: "/financing/materials/42/versions/2" })).toBe("refuse");
  expect(typeof enterCopyGate({ ...ada, cookie: "__session=grace-session" })).toBe("function");

  const first = places[0] as () => void;
  first();
  first(); // Given back twice, one place.
  const again = enterCopyGate(ada);
  expect(typeof again).toBe("function");
  expect(enterCopyGate(ada)).toBe("refuse");
  for (const place of [again, ...places.slice(1)]) (place as () => void)();
});

test("a bearer token is a credential of its own", () => {
  const token = { method: "GET", path: "/pdfs/download.pdf", authorization: "Bearer token-of-alan" };
  const places = Array.from({ length: COPIES_IN_FLIGHT_PER_READER }, () => enterCopyGate(token));
  expect(enterCopyGate(token)).toBe("refuse");
  for (const place of places) (place as () => void)();
  expect(typeof enterCopyGate(token)).toBe("function");
});

test("what makes no copy, or carries no credential, passes untouched", () => {
  expect(enterCopyGate({ ...ada, method: "HEAD" })).toBe("pass");
  expect(enterCopyGate({ ...ada, path: "/financing/materials/42/read" })).toBe("pass");
  expect(enterCopyGate({ ...ada, path: "/financing/materials" })).toBe("pass");
  expect(enterCopyGate({ method: "GET", path: "/pdfs/download.pdf", cookie: "theme=dark" })).toBe("pass");
  expect(enterCopyGate({ method: "GET", path: "/pdfs/download.pdf" })).toBe("pass");
});

test("the edge's refusal is the pool's 429, with Retry-After", () => {
  expect(copyRefusal.status).toBe(429);
  expect(copyRefusal.headers["Retry-After"]).toBe(String(STAMPING_RETRY_AFTER_SECONDS));
  expect(copyRefusal.body).toBe(materialsMessages.readerBusy(STAMPING_RETRY_AFTER_SECONDS));
});
