import { type LoaderFunctionArgs, json } from "@remix-run/node";
import { getToast } from "~/http/toast.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const { toast, headers } = await getToast(request);
  // Only a request that carried a notice needs its cookie cleared.
  return json({ toast: toast ?? null }, toast ? { headers } : undefined);
}
