// GET /health: is this Worker configured and does its database answer?
import { Hono } from "hono";
import pkg from "../../../package.json" with { type: "json" };
import type { AppEnv } from "../../lib/app-env.ts";
import { loadSettings } from "../../lib/config.ts";
import { checkDatabase } from "../../lib/database-health.ts";
import { errorBody } from "../../lib/errors.ts";

export const health = new Hono<AppEnv>().get("/health", async (c) => {
  const settings = loadSettings(c.env);
  if (!settings.ok) {
    return c.json(
      { status: "misconfigured", version: pkg.version, ...errorBody("CONFIG_INVALID", "settings are missing or invalid", { problems: settings.problems }) },
      500,
    );
  }
  const database = await checkDatabase(settings.settings);
  return c.json({ status: database.ok ? "ok" : "degraded", version: pkg.version, database }, database.ok ? 200 : 503);
});
