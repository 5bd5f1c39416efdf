import type { PublicUser } from "~/models/account/user.server";

/** Investors whose NDA is signed, and administrators, may see the materials. */
export function canSeeMaterials(user: PublicUser) {
  return user.role.name === "administrator" || user.isNDASigned;
}

/**
 * An administrator must keep a second factor: they may replace it, never turn it off, and may
 * remove a passkey only while another factor remains.
 */
export function canGoWithoutSecondFactor(user: PublicUser) {
  return user.role.name !== "administrator";
}
