/* eslint-disable @typescript-eslint/no-explicit-any -- the callers know each endpoint's answer */
/** A same-origin JSON POST from a page's script: the answer's body, or its `{ message }` when refused. */
export async function postJson(
  url: string,
  payload: unknown,
): Promise<{ ok: true; body: any } | { ok: false; message: string }> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(payload),
    credentials: "same-origin",
  });
  const body = (await response.json().catch(() => ({}))) as { message?: string };
  return response.ok ? { ok: true, body } : { ok: false, message: body.message ?? response.statusText };
}
