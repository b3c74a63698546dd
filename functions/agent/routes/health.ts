// GET /health: is this Worker configured and does its database answer?
import { Hono } from "hono/tiny";
import { describeRoute } from "hono-openapi";
import { z } from "zod";
import { version } from "../../../package.json";
import { checkDatabase } from "../../lib/database-health.ts";
import { ErrorBodySchema, errorBody } from "../../lib/errors.ts";
import type { AppEnv } from "../app-env.ts";
import { jsonContent } from "../openapi.ts";
import { loadSettings } from "../settings.ts";

const Database = z.union([
  z.object({ ok: z.literal(true), latency_ms: z.number() }),
  z.object({ ok: z.literal(false), latency_ms: z.number(), code: z.enum(["DATABASE_UNAVAILABLE", "UPSTREAM_UNAVAILABLE", "TIMEOUT"]) }),
]);
const Healthy = z.object({ status: z.enum(["ok", "degraded"]), version: z.string(), database: Database });
const Misconfigured = z.object({ status: z.literal("misconfigured"), version: z.string(), ...ErrorBodySchema.shape });

export const health = new Hono<AppEnv>().get(
  "/health",
  describeRoute({
    summary: "Is the Worker configured, and does its database answer",
    description: "No authentication. One round trip through PostgREST to Postgres. Load balancers can use the status code alone.",
    responses: {
      200: { description: "configured, database answering", content: jsonContent(Healthy) },
      503: { description: "degraded: the database did not answer (database.code says how)", content: jsonContent(Healthy) },
      500: { description: "misconfigured: CONFIG_INVALID, with the settings at fault", content: jsonContent(Misconfigured) },
    },
  }),
  async (c) => {
    const settings = loadSettings(c.env);
    if (!settings.ok) {
      return c.json(
        {
          status: "misconfigured",
          version: version,
          ...errorBody("CONFIG_INVALID", "settings are missing or invalid", { problems: settings.problems }),
        },
        500,
      );
    }
    const database = await checkDatabase(settings.settings);
    return c.json({ status: database.ok ? "ok" : "degraded", version: version, database }, database.ok ? 200 : 503);
  },
);
