import { methodNotAllowed } from "~/http/api.server";
import { ndaFlagApiAction } from "~/http/nda-flag-api.server";
import { setNdaSent } from "~/models/investors/nda-flags.server";

export const action = ndaFlagApiAction(setNdaSent);

export const loader = () => methodNotAllowed(["POST"]);
