// Cross-origin access for browser clients, such as the agent Worker's playground on another
// origin. Only the origins TOOL_AGENT_CORS_ORIGINS lists get CORS headers (none by default), so a
// page elsewhere cannot read answers even with a key pasted into it. Runs before the caller is
// identified: a preflight carries no key.
import type { Context } from "hono";
import { cors } from "hono/cors";
import type { ToolAgentEnv } from "./app-env.ts";

export const corsForAllowedOrigins = cors({
  origin: (origin, c: Context<ToolAgentEnv>) => (c.var.settings.corsOrigins.includes(origin) ? origin : null),
  allowHeaders: ["authorization", "content-type"],
  allowMethods: ["GET", "POST", "DELETE", "OPTIONS"],
  maxAge: 600,
});
