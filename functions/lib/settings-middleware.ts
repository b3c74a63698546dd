// Loads a Worker's validated settings for the request, or answers 500 CONFIG_INVALID naming each
// missing or invalid setting (by name only). Each Worker passes its own loader.
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { errorBody } from "./errors.ts";
import { log } from "./log.ts";
import { describeProblems, type SettingsResult } from "./settings-parsing.ts";

export function withSettingsOf<S>(load: (env: object) => SettingsResult<S>) {
  return createMiddleware<{ Bindings: object; Variables: { settings: S; requestId: string } }>(async (c: Context, next) => {
    const result = load(c.env);
    if (!result.ok) {
      log.error("config.invalid", { problems: result.problems, request_id: c.var.requestId });
      return c.json(errorBody("CONFIG_INVALID", describeProblems(result.problems), { problems: result.problems }), 500);
    }
    c.set("settings", result.settings);
    await next();
  });
}
