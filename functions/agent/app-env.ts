// The types that flow through every Hono handler of the agent Worker: its bindings and the
// per-request variables.

import type { VerifiedUser } from "../lib/auth/verify-access-token.ts";
import type { Settings } from "./settings.ts";

export interface AppEnv {
  Bindings: Env;
  Variables: {
    requestId: string;
    settings: Settings;
    /** Set by requireUser. */
    user: VerifiedUser;
  };
}
