// The types that flow through every Hono handler: bindings and per-request variables.

import type { VerifiedUser } from "./auth/verify-access-token.ts";
import type { Settings } from "./config.ts";

export interface AppEnv {
  Bindings: Env;
  Variables: {
    requestId: string;
    settings: Settings;
    /** Set by requireUser. */
    user: VerifiedUser;
  };
}
