import { AsyncLocalStorage } from "node:async_hooks";

/**
 * What belongs to the request being served: its id, which every log line written meanwhile must carry,
 * and the reads it has under way. server.js runs each request inside `runWithRequestId`, and everything
 * the request starts (loaders, actions, mail sent after the answer) sees the same store, however deep,
 * without passing it down by hand.
 */
const requestStore = new AsyncLocalStorage<{
  requestId: string;
  readsUnderWay?: Map<string, Promise<unknown>>;
  timing?: RequestTiming;
}>();

/** The database's share of a request's time, summed by every statement it ran (for Server-Timing). */
export type RequestTiming = { databaseMs: number };

/** Serves the request in its own store; with `timing`, each statement it runs adds its time there. */
export function runWithRequestId<T>(requestId: string, serve: () => T, timing?: RequestTiming): T {
  return requestStore.run({ requestId, timing }, serve);
}

/** A statement's time, counted to the request that ran it (when that request is timed). */
export function addDatabaseTime(ms: number) {
  const timing = requestStore.getStore()?.timing;
  if (timing) timing.databaseMs += ms;
}

/**
 * `read()`, unless this request is already running the read named `key`: then its answer, shared. A page's
 * loaders run at once and each asks who is signed in (the layout for its header, the page for its guard);
 * they need one trip to the database, not two. Shared only while it runs: a read asked for after it ended
 * (after an action's write, say) reads afresh, so nothing a request changed is hidden from it.
 */
export function sharedWhileUnderWay<T>(key: string, read: () => Promise<T>): Promise<T> {
  const store = requestStore.getStore();
  if (!store) return read();
  const readsUnderWay = (store.readsUnderWay ??= new Map());
  const underWay = readsUnderWay.get(key) as Promise<T> | undefined;
  if (underWay) return underWay;
  const answer = read().finally(() => readsUnderWay.delete(key));
  readsUnderWay.set(key, answer);
  return answer;
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
