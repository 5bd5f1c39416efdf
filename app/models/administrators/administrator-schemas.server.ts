/** The administrators page's forms: an invitation, and the actions on one administrator or invitation. */
import { z } from "zod";
import { administratorErrors } from "~/content/administrators";
import { emailSchema } from "~/models/account/account-schemas.server";

export const inviteAdministratorSchema = z.object({
  intent: z.literal("invite", { error: administratorErrors.unknownAction }),
  email: emailSchema,
});

/** Remove an administrator, reset their second factor, or revoke an invitation: each names its row by id. */
export const administratorActionSchema = z
  .object({
    intent: z.enum(["remove", "reset-factor", "revoke"], { error: administratorErrors.unknownAction }),
    id: z
      .string({ error: administratorErrors.missingId })
      .trim()
      .min(1, { error: administratorErrors.missingId })
      .max(100, { error: administratorErrors.missingId }),
    /** A removal deletes an account: its form asks for a ticked box first. */
    confirm: z.literal("remove", { error: administratorErrors.removalNotConfirmed }).optional(),
  })
  .refine((action) => action.intent !== "remove" || action.confirm === "remove", {
    path: ["confirm"],
    error: administratorErrors.removalNotConfirmed,
  });
