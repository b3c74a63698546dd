// GET /playground/config: what the browser playground (static assets under /playground/, see
// functions/playground/) needs to know about this deployment. No authentication and nothing
// secret: where a local stack signs in its seeded users (only when the data plane is on this
// machine; a deployed page takes a pasted token instead) and where the Tool Agent answers.
import { Hono } from "hono/tiny";
import { describeRoute } from "hono-openapi";
import { z } from "zod";
import type { AppEnv } from "../app-env.ts";
import { jsonContent } from "../openapi.ts";
import type { Settings } from "../settings.ts";
import { withSettings } from "../settings-middleware.ts";

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);

export const PlaygroundConfig = z
  .object({
    sign_in_url: z
      .string()
      .nullable()
      .describe("Supabase Auth's password sign-in on the local stack; null when the data plane is not local"),
    tool_agent_url: z.string().nullable().describe("the Tool Agent's base URL (PLAYGROUND_TOOL_AGENT_URL), or null"),
  })
  .meta({ id: "PlaygroundConfig" });

export function playgroundConfig(settings: Pick<Settings, "supabaseUrl" | "playground">): z.infer<typeof PlaygroundConfig> {
  const local = LOOPBACK_HOSTS.has(new URL(settings.supabaseUrl).hostname);
  return {
    sign_in_url: local ? `${settings.supabaseUrl}/auth/v1/token?grant_type=password` : null,
    tool_agent_url: settings.playground.toolAgentUrl ?? null,
  };
}

export const playgroundRoutes = new Hono<AppEnv>().get(
  "/playground/config",
  describeRoute({
    summary: "What the browser playground needs to know about this deployment",
    description: "No authentication; nothing secret. The page itself is a static asset at /playground/.",
    responses: { 200: { description: "the playground's settings", content: jsonContent(PlaygroundConfig) } },
  }),
  withSettings,
  (c) => c.json(playgroundConfig(c.var.settings)),
);
