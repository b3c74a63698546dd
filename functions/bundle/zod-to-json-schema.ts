// Stand-in for zod-to-json-schema in the Workers' bundles (wrangler.toml [alias]). hono-openapi's
// schema converter (@standard-community/standard-json) imports it only for zod 3 schemas; every
// schema here is zod 4, which converts itself. The package arrived in node_modules with the MCP
// SDK (the Tool Agent), and esbuild bundles whatever a dynamic import can reach: 23 KiB
// minified of zod 3 converter the Workers never run.
import { NotBundledError } from "./not-bundled.ts";

export function zodToJsonSchema(): never {
  throw new NotBundledError("zod-to-json-schema (zod 3 schemas)");
}
