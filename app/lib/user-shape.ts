/**
 * The one JSON shape of a user (docs/requirements.md, "Data"), as a zod schema: the API's answers are
 * documented from it (app/openapi/api-contract.server.ts), and the TypeScript types the app and the
 * investor table use are inferred from it. Never a hash, never a token. The browser imports the types
 * only, so zod stays out of its bundle.
 */
import { z } from "zod";

export const ROLE_NAMES = ["investor", "administrator"] as const;

/** A row of the administrator's investor table: a user without the role. */
export const investorRowSchema = z.object({
  id: z.string(),
  email: z.string(),
  fullName: z.string(),
  address: z.string(),
  isNDASent: z.boolean(),
  isNDASigned: z.boolean(),
  createdAt: z.iso.datetime(),
});

export const publicUserSchema = investorRowSchema.extend({
  role: z.object({ name: z.enum(ROLE_NAMES) }),
});

export type InvestorRow = z.output<typeof investorRowSchema>;
export type PublicUser = z.output<typeof publicUserSchema>;
