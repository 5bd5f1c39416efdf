import { interestNoticeOf, readPortalFeatures } from "~/models/features/portal-features.server";
import { indicationsOf } from "~/models/interest/interest.server";
import type { AnswerOf } from "~/openapi/api-contract.server";
import { apiJson } from "./api.server";

/** The interest calls' answer: the investor's indications, newest first, with the firm's words. */
export async function interestAnswer(userId: string, status = 200) {
  const [indications, features] = await Promise.all([indicationsOf(userId), readPortalFeatures()]);
  return apiJson({ indications, notice: interestNoticeOf(features) } satisfies AnswerOf<"Interest">, { status });
}
