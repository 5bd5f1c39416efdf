import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireNdaSigned } from "~/http/auth.server";
import { PRIVATE_FILES, servePrivateFile } from "~/http/private-file.server";

/** The investor PDF (the materials' three document links): signed-NDA investors and administrators only. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireNdaSigned(request);
  return servePrivateFile({ request, user, file: PRIVATE_FILES.pdf, ip: context.clientIp });
}
