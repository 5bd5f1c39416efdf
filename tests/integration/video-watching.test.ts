/**
 * The parts of a library video played, as the watch page reports them (POST
 * /financing/materials/:id/watching): kept as their union per viewer with where they stopped; a report
 * from someone who never opened the video, beyond its length, of more than could have played, too many
 * at once or malformed is refused with its 4xx and changes nothing.
 */
import fs from "node:fs";
import { watchingRefusals } from "~/content/reading";
import { toPublicUser } from "~/models/account/user.server";
import { createDocument, setPublished } from "~/models/library/library-changes.server";
import { WATCH_REPORTS_PER_MINUTE } from "~/models/reading/video-watches.server";
import * as fileRoute from "~/routes/financing.materials_.$documentId_.file";
import * as watchingRoute from "~/routes/financing.materials_.$documentId_.watching";
import { storeBlob } from "~/server/blob-store.server";
import { getDb } from "~/server/db.server";
import { callRoute, routeModules } from "../support/api-routes";
import { sessionHeaders } from "../support/factories";
import { useIntegration } from "../support/integration";

const routes = routeModules({ file: fileRoute, watching: watchingRoute });
const VIDEO = fs.readFileSync("private/investorvideo.mp4");

const { investor, administrator, clock: testClock } = useIntegration();
let videoId: string;
beforeAll(async () => {
  const admin = toPublicUser(await administrator());
  async function* once() {
    yield VIDEO;
  }
  const blob = await storeBlob(once(), { limitFor: () => VIDEO.byteLength });
  const created = await createDocument(
    {
      title: "Roadshow",
      description: "",
      kind: "video",
      audience: "signed",
      chosenUserIds: [],
      upload: {
        blobId: blob.id,
        fileName: "r.mp4",
        contentType: "video/mp4",
        size: blob.size,
        sha256: blob.sha256,
        captionsBlobId: null,
      },
    },
    { user: admin, ip: null },
  );
  if (!created.ok) throw new Error(created.message);
  await setPublished(created.id, true, { user: admin, ip: null });
  videoId = created.id;
});

async function viewer({ opened }: { opened: boolean }) {
  const user = toPublicUser(await investor("nda-signed", { fullName: "Ada Viewer", address: "1 Main St" }));
  const headers = await sessionHeaders(user.id);
  if (opened) {
    const range = await callRoute(routes.file, {
      path: `/financing/materials/${videoId}/file`,
      params: { documentId: videoId },
      headers: { ...headers, Range: "bytes=0-99" },
    });
    expect(range.status).toBe(206);
  }
  return { user, headers };
}

const report = (headers: Record<string, string>, json: unknown) =>
  callRoute(routes.watching, {
    path: `/financing/materials/${videoId}/watching`,
    params: { documentId: videoId },
    headers,
    json,
  });

function stored(userId: string) {
  return getDb()
    .selectFrom("video_watches")
    .select(["ranges", "watched_ms", "stopped_at_ms", "duration_ms"])
    .where("user_id", "=", userId)
    .executeTakeFirst();
}

it("keeps the union of the parts played and where the viewer stopped, whatever order reports come in", async () => {
  const { user, headers } = await viewer({ opened: true });
  testClock.advance(60_000);
  const first = {
    durationMs: 60_000,
    stoppedAtMs: 30_000,
    ranges: [
      [0, 10_000],
      [20_000, 30_000],
    ],
  };
  expect((await report(headers, first)).status).toBe(204);
  expect((await report(headers, { durationMs: 60_000, stoppedAtMs: 25_000, ranges: [[5_000, 25_000]] })).status).toBe(
    204,
  );
  // The first report again changes nothing of what was played.
  expect((await report(headers, first)).status).toBe(204);
  expect(await stored(user.id)).toMatchObject({ ranges: "[[0,30000]]", duration_ms: 60_000, stopped_at_ms: 30_000 });
  expect(Number((await stored(user.id))!.watched_ms)).toBe(30_000);
});

it("refuses a viewer who never opened the video (404), a part beyond its length or more than could have played (422)", async () => {
  const stranger = await viewer({ opened: false });
  testClock.advance(60_000);
  const unopened = await report(stranger.headers, { durationMs: 60_000, stoppedAtMs: 1_000, ranges: [[0, 1_000]] });
  expect(unopened.status).toBe(404);
  expect(await unopened.text()).toBe(watchingRefusals.notOpened);
  expect(await stored(stranger.user.id)).toBeUndefined();

  const { user, headers } = await viewer({ opened: true });
  testClock.advance(10_000);
  const beyond = await report(headers, { durationMs: 60_000, stoppedAtMs: 1_000, ranges: [[0, 60_001]] });
  expect(beyond.status).toBe(422);
  expect(await beyond.text()).toBe(watchingRefusals.rangeBeyondVideo);
  // Ten seconds since it was opened: even at double speed, 40 s could not have played.
  const tooMuch = await report(headers, { durationMs: 60_000, stoppedAtMs: 40_000, ranges: [[0, 40_000]] });
  expect(tooMuch.status).toBe(422);
  expect(await tooMuch.text()).toBe(watchingRefusals.moreThanCouldPlay);
  expect(await stored(user.id)).toBeUndefined();
});

it("refuses a flood of reports with 429 and a malformed one with 400, changing nothing", async () => {
  const { user, headers } = await viewer({ opened: true });
  testClock.advance(60_000);
  for (let n = 1; n <= WATCH_REPORTS_PER_MINUTE.limit; n += 1)
    expect((await report(headers, { durationMs: 60_000, stoppedAtMs: n, ranges: [[0, 1_000]] })).status).toBe(204);
  const flood = await report(headers, { durationMs: 60_000, stoppedAtMs: 50_000, ranges: [[0, 50_000]] });
  expect(flood.status).toBe(429);
  expect(flood.headers.get("Retry-After")).toBeTruthy();
  for (const bad of [{ durationMs: 60_000, stoppedAtMs: 0, ranges: [[5_000, 1_000]] }, { ranges: [] }, "nonsense"]) {
    const response = await report(headers, bad);
    expect(response.status).toBe(400);
    expect(await response.text()).toBe(watchingRefusals.malformed);
  }
  expect(await stored(user.id)).toMatchObject({ ranges: "[[0,1000]]", stopped_at_ms: WATCH_REPORTS_PER_MINUTE.limit });
});
