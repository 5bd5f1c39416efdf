import type { PublicUser } from "./user.server";

/** Investors whose NDA is signed, and administrators, may see the materials. */
export function canSeeMaterials(user: PublicUser) {
  return user.role.name === "administrator" || user.isNDASigned;
}
