import { type LoaderFunctionArgs, json } from "@remix-run/node";
import { getSessionUser } from "~/http/auth.server";

/**
 * Only decides whether the header shows LOG OUT. It protects nothing: child
 * loaders run in parallel with this one, so each page calls its own guard.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getSessionUser(request);
  return json({ signedIn: user !== null });
}
