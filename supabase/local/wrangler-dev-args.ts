// How every local Worker is started on `wrangler dev` (npm run dev, the e2e tests, the
// benchmarks): the repository's own wrangler, loopback only, no interactive session, and the
// options that differ between them.
import { join, resolve } from "node:path";
import { supabaseDir } from "./paths.ts";

export const repoRoot = resolve(supabaseDir, "..");
export const WRANGLER_JS = join(repoRoot, "node_modules", "wrangler", "bin", "wrangler.js");

export interface WranglerDevArgs {
  port: number;
  /** Another Worker's wrangler.toml; the agent's by default. */
  config?: string;
  inspectorPort?: number;
  persistTo?: string;
  envFiles?: readonly string[];
  /** Anything else, e.g. --test-scheduled. */
  extra?: readonly string[];
}

/** The arguments for `node <them>`. */
export function wranglerDevArgs(options: WranglerDevArgs): string[] {
  return [
    WRANGLER_JS,
    "dev",
    ...(options.config ? ["-c", options.config] : []),
    "--ip",
    "127.0.0.1",
    "--port",
    String(options.port),
    ...(options.inspectorPort ? ["--inspector-port", String(options.inspectorPort)] : []),
    ...(options.persistTo ? ["--persist-to", options.persistTo] : []),
    "--show-interactive-dev-session=false",
    ...(options.envFiles ?? []).flatMap((file) => ["--env-file", file]),
    ...(options.extra ?? []),
  ];
}
