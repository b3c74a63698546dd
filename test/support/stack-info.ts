// What the global setup hands to tests about the running local stack.
import type { LocalKeys } from "../../supabase/local/keys.ts";

export interface LocalStackInfo {
  supabaseUrl: string;
  anonKey: string;
  postgres: { port: number; password: string };
  keys: LocalKeys;
  outage: { supabaseUrl: string; controlUrl: string };
  /** A plane only the fault tests use; controlled under `${outage.controlUrl}/faults/...`. */
  faults: { supabaseUrl: string };
}

declare module "vitest" {
  export interface ProvidedContext {
    localStack: LocalStackInfo;
  }
}
