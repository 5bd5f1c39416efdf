import { type ActionFunctionArgs, redirect } from "@remix-run/node";
import { logOut } from "~/http/auth.server";

/**
 * LOG OUT in the financing header and Log Out on /home both post here. Logging
 * out needs no guard: without a session it only clears a stale cookie.
 */
export async function action({ request }: ActionFunctionArgs) {
  const headers = await logOut(request);
  return redirect("/financing/login", { headers });
}

/** Logging out is a POST only (a link or prefetch must never sign anyone out); a GET just moves on. */
export async function loader() {
  return redirect("/financing/login");
}
