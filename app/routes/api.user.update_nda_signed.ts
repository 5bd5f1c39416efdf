import { methodNotAllowed } from "~/http/api.server";
import { ndaFlagApiAction } from "~/http/nda-flag-api.server";
import { setNdaSigned } from "~/models/investors/nda-flags.server";

export const action = ndaFlagApiAction(setNdaSigned);

export const loader = () => methodNotAllowed(["POST"]);
