import { recordAuditEvent } from "./audit.server";
import { requireUser } from "./session.server";
import type { PublicUser } from "./user.server";

/** Investors whose NDA is signed, and administrators, may see the materials. */
export function canSeeMaterials(user: PublicUser) {
  return user.role.name === "administrator" || user.isNDASigned;
}

/**
 * For every materials page and file: the user, a redirect to the login page
 * for a visitor, or 403 for a logged-in user whose NDA is not signed.
 */
export async function requireNdaSigned(request: Request): Promise<PublicUser> {
  const user = await requireUser(request);
  if (!canSeeMaterials(user)) {
    throw new Response("The investor materials open once your NDA is signed.", {
      status: 403,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "private, no-store" },
    });
  }
  return user;
}

/** The guard of every materials page: only allowed users pass, and each view is recorded. */
export async function requireMaterialsView(request: Request, clientIp: string): Promise<PublicUser> {
  const user = await requireNdaSigned(request);
  await recordAuditEvent({
    actorId: user.id,
    actorEmail: user.email,
    action: "materials.view",
    details: { page: new URL(request.url).pathname },
    ip: clientIp,
  });
  return user;
}
