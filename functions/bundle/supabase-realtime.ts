// Stand-in for @supabase/realtime-js in the Worker's bundle (wrangler.toml [alias]). createClient
// always constructs a RealtimeClient and hands it the access token; the Worker opens no channel
// (live events go through the run hub), so construction and setAuth do nothing and opening a
// channel throws.
import { NotBundledError } from "./not-bundled.ts";

export class RealtimeClient {
  setAuth(_token?: string | null): Promise<void> {
    return Promise.resolve();
  }
  channel(): never {
    throw new NotBundledError("@supabase/realtime-js (channels)");
  }
  getChannels(): never[] {
    return [];
  }
  removeAllChannels(): Promise<never[]> {
    return Promise.resolve([]);
  }
}
