import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, methodNotAllowed, readApiQuery } from "~/http/api.server";
import { requireApiUser } from "~/http/auth.server";
import { auditLogPage, auditLogQuerySchema } from "~/models/audit/audit-log.server";
import { type AnswerOf } from "~/openapi/api-contract.server";

/** GET → 200 { events, nextCursor? } (administrators only): a page of the audit log, newest first, filtered. */
export async function loader({ request }: LoaderFunctionArgs) {
  if (request.method !== "GET" && request.method !== "HEAD") return methodNotAllowed(["GET"]);
  await requireApiUser(request, { role: "administrator" });
  const page = await auditLogPage(readApiQuery(request, auditLogQuerySchema));
  const events = page.rows.map(({ labelledDetails: _labelled, ...event }) => event);
  return apiJson({
    events,
    ...(page.nextCursor !== null && { nextCursor: String(page.nextCursor) }),
  } satisfies AnswerOf<"AuditLog">);
}

export const action = () => methodNotAllowed(["GET"]);
