// Stand-in for @supabase/functions-js in the Worker's bundle (wrangler.toml [alias]). supabase-js
// builds a FunctionsClient only when `.functions` is read; the Worker never invokes Supabase Edge
// Functions, so that throws. The error classes and region enum are only re-exported.
import { NotBundledError } from "./not-bundled.ts";

export class FunctionsError extends Error {}
export class FunctionsFetchError extends FunctionsError {}
export class FunctionsHttpError extends FunctionsError {}
export class FunctionsRelayError extends FunctionsError {}
export const FunctionRegion = {};

export class FunctionsClient {
  constructor() {
    throw new NotBundledError("@supabase/functions-js (Supabase Edge Functions)");
  }
}
