import { AsyncLocalStorage } from "node:async_hooks";

/**
 * What every log line written while a request is served must carry: its id.
 * server.js runs each request inside `runWithRequestId`, and everything the
 * request starts (loaders, actions, mail sent after the answer) sees the same
 * store, however deep, without passing the id down by hand.
 */
const requestStore = new AsyncLocalStorage<{ requestId: string }>();

export function runWithRequestId<T>(requestId: string, serve: () => T): T {
  return requestStore.run({ requestId }, serve);
}

/** The id of the request being served, or undefined outside one (start-up, housekeeping). */
export function currentRequestId(): string | undefined {
  return requestStore.getStore()?.requestId;
}

/** A proxy's X-Request-Id is kept only when it is a plain token, so that it cannot forge log fields. */
const TRUSTED_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The id for a request: a trusted proxy's X-Request-Id (when TRUST_PROXY is
 * set), so that its logs and ours name the same request; otherwise a new one.
 */
export function requestIdFor(proxyRequestId: string | undefined, trustProxy: boolean, newId: () => string): string {
  if (trustProxy && proxyRequestId && TRUSTED_REQUEST_ID.test(proxyRequestId)) return proxyRequestId;
  return newId();
}
