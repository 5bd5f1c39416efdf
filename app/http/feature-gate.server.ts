/**
 * A part the firm has turned off (app/models/features/portal-features.server.ts) is not there: its pages
 * and its API calls answer 404, before anything is read or stored.
 */
import type { PublicUser } from "~/models/account/user.server";
import { isFeatureOn, type PortalFeature } from "~/models/features/portal-features.server";
import type { Role } from "~/server/db.server";
import { apiError } from "./api.server";
import { requireApiUser } from "./auth.server";

const OFF_MESSAGE = "Not found.";

/** Throws the page's 404 when the feature is off. */
export async function requireFeaturePage(feature: PortalFeature): Promise<void> {
  if (!(await isFeatureOn(feature))) throw new Response(OFF_MESSAGE, { status: 404 });
}

/** Throws the API's 404 (a JSON error) when the feature is off. */
export async function requireFeatureApi(feature: PortalFeature): Promise<void> {
  if (!(await isFeatureOn(feature))) throw apiError(404, OFF_MESSAGE);
}

/** The API's caller (of `role` where one is named: else 401 or 403), then the feature on (else 404). */
export async function requireFeatureApiUser(
  request: Request,
  feature: PortalFeature,
  options: { role?: Role } = {},
): Promise<PublicUser> {
  const user = await requireApiUser(request, options);
  await requireFeatureApi(feature);
  return user;
}
