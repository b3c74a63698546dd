// Stand-in for @supabase/auth-js in the Worker's bundle (wrangler.toml [alias]). The Worker never
// signs anyone in: the user's client passes `accessToken` (supabase-js then builds no auth
// client) and the anon client does the same with no token (functions/lib/supabase.ts).
// supabase-js still declares `class SupabaseAuthClient extends AuthClient` when it loads, so a
// class must exist; constructing it means something needs sign-in, which this Worker does not do.
import { NotBundledError } from "./not-bundled.ts";

export class AuthClient {
  constructor() {
    throw new NotBundledError("@supabase/auth-js (sign-in and sessions)");
  }
}
