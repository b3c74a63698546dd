// Stand-in for @supabase/storage-js in the Worker's bundle (wrangler.toml [alias]). createClient
// always constructs a StorageClient; tool payloads go to R2 (functions/agent/persistence/
// payload-store.ts), so Supabase Storage is never called and any use of it throws.
import { NotBundledError } from "./not-bundled.ts";

export class StorageApiError extends Error {}

export class StorageClient {
  from(): never {
    throw new NotBundledError("@supabase/storage-js (Supabase Storage)");
  }
}
