import { redirect } from "@remix-run/node";

/** The old public sign-up address; accounts are created in the financing portal. */
export function loader() {
  return redirect("/financing/signup");
}
