import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireAnonymous } from "~/http/auth.server";
import { honeypotFields } from "./honeypot.server";

/**
 * The loader of the account pages a visitor uses before logging in (login, sign-up, forgot
 * password, resend verification): someone already logged in goes to the portal instead, and the
 * others get their form's honeypot fields.
 */
export async function accountDoorLoader({ request }: LoaderFunctionArgs) {
  await requireAnonymous(request);
  return { honeypot: honeypotFields() };
}
