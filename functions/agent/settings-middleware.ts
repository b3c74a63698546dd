// Loads the agent's validated settings for the request, or answers 500 CONFIG_INVALID naming
// each missing or invalid setting (by name only).
import { createMiddleware } from "hono/factory";
import { errorBody } from "../lib/errors.ts";
import { log } from "../lib/log.ts";
import { describeProblems } from "../lib/settings-parsing.ts";
import type { AppEnv } from "./app-env.ts";
import { loadSettings } from "./settings.ts";

export const withSettings = createMiddleware<AppEnv>(async (c, next) => {
  const result = loadSettings(c.env);
  if (!result.ok) {
    log.error("config.invalid", { problems: result.problems, request_id: c.var.requestId });
    return c.json(errorBody("CONFIG_INVALID", describeProblems(result.problems), { problems: result.problems }), 500);
  }
  c.set("settings", result.settings);
  await next();
});
