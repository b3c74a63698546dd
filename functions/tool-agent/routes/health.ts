// GET /health: the contract's `{"status": "ok"}`, plus whether the settings and the database are fine.
import { Hono } from "hono";
import { describeRoute } from "hono-openapi";
import { z } from "zod";
import { version } from "../../../package.json";
import { checkDatabase } from "../../lib/database-health.ts";
import { jsonContent } from "../../lib/openapi.ts";
import type { ToolAgentEnv } from "../app-env.ts";
import { toolAgentError } from "../errors.ts";
import { loadToolAgentSettings } from "../settings.ts";

const Healthy = z.object({
  status: z.enum(["ok", "degraded"]),
  version: z.string(),
  database: z.object({ ok: z.boolean(), latency_ms: z.number() }).loose(),
});

export const health = new Hono<ToolAgentEnv>().get(
  "/health",
  describeRoute({
    summary: "Is the Tool Agent configured, and does its database answer",
    responses: {
      200: { description: "ok", content: jsonContent(Healthy) },
      503: { description: "degraded: the database did not answer", content: jsonContent(Healthy) },
      500: { description: "misconfigured: CONFIG_INVALID with the settings at fault" },
    },
  }),
  async (c) => {
    const settings = loadToolAgentSettings(c.env);
    if (!settings.ok) {
      return c.json(
        {
          status: "misconfigured",
          version,
          ...toolAgentError("CONFIG_INVALID", "settings are missing or invalid", { problems: settings.problems }),
        },
        500,
      );
    }
    const database = await checkDatabase(settings.settings);
    return c.json({ status: database.ok ? "ok" : "degraded", version, database }, database.ok ? 200 : 503);
  },
);
