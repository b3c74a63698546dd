// How every Worker reads its settings from its Env bindings: blank means unset, and a bad or
// missing setting is reported by name and problem, never by value (values may be secrets).
import { z } from "zod";

/** A blank value in .dev.vars or the dashboard means "not set". */
export const blankToUndefined = (value: unknown) => (typeof value === "string" && value.trim() === "" ? undefined : value);
export const optional = <T extends z.ZodType>(schema: T) => z.preprocess(blankToUndefined, schema.optional());
export const required = <T extends z.ZodType>(schema: T) => z.preprocess(blankToUndefined, schema);

/** A whole number of seconds from `min` to `max`, each bound named in its own message. */
export const wholeSeconds = (min: number, max: number) =>
  z.coerce
    .number({ error: "must be a number of seconds" })
    .int()
    .min(min, { error: `must be at least ${min} second${min === 1 ? "" : "s"}` })
    .max(max, { error: `must be at most ${max} seconds` });

export interface SettingProblem {
  setting: string;
  problem: string;
}

export type SettingsResult<S> = { ok: true; settings: S } | { ok: false; problems: SettingProblem[] };

/** zod's issues as setting problems: the setting's name and what is wrong, never the value. */
export function settingProblems(error: z.ZodError | undefined): SettingProblem[] {
  return (error?.issues ?? []).map((issue) => ({
    setting: String(issue.path[0] ?? "(settings)"),
    // zod's wording for a missing setting is "expected string, received undefined".
    problem: issue.code === "invalid_type" && issue.input === undefined && issue.path.length === 1 ? "is required" : issue.message,
  }));
}

export function describeProblems(problems: SettingProblem[]): string {
  return `invalid configuration: ${problems.map((p) => `${p.setting} ${p.problem}`).join("; ")}`;
}

/**
 * A Worker's settings loader: `parse` runs once per Env object. Workers have no start-up hook,
 * and the Env object is stable per isolate, so settings are validated once, not per request.
 */
export function loadOncePerEnv<S>(parse: (env: Record<string, unknown>) => SettingsResult<S>): (env: object) => SettingsResult<S> {
  const cache = new WeakMap<object, SettingsResult<S>>();
  return (env) => {
    let result = cache.get(env);
    if (!result) {
      result = parse(env as Record<string, unknown>);
      cache.set(env, result);
    }
    return result;
  };
}
