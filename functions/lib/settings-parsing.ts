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
    .int({ error: "must be a whole number of seconds" })
    .min(min, { error: `must be at least ${min} second${min === 1 ? "" : "s"}` })
    .max(max, { error: `must be at most ${max} seconds` });

export interface SettingProblem {
  setting: string;
  problem: string;
}

export type SettingsResult<S> = { ok: true; settings: S } | { ok: false; problems: SettingProblem[] };

/**
 * zod's issues as setting problems: the setting's name and what is wrong, never the value. A
 * setting that is unset or blank in `env` "is required" (zod's wording would be "expected
 * string, received undefined"); one that is set but wrong keeps its own message. zod leaves the
 * value out of its issues, so `env` is what tells the two apart.
 */
export function settingProblems(error: z.ZodError | undefined, env: Record<string, unknown>): SettingProblem[] {
  return (error?.issues ?? []).map((issue) => {
    const setting = String(issue.path[0] ?? "(settings)");
    const unset = issue.path.length === 1 && blankToUndefined(env[setting]) === undefined;
    return { setting, problem: issue.code === "invalid_type" && unset ? "is required" : issue.message };
  });
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
