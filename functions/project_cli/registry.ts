// The whitelist: every (module, method) that exists. Nothing outside this table can run. A
// runtime allow-list can only narrow it.

import type { CliModule } from "./method.ts";
import { calendar } from "./modules/calendar/index.ts";
import { contacts } from "./modules/contacts/index.ts";
import { memory } from "./modules/memory/index.ts";
import { tools } from "./modules/tools/index.ts";

export const MODULES: Readonly<Record<string, CliModule>> = { calendar, contacts, memory, tools };

export const ALL_METHODS: readonly string[] = Object.entries(MODULES).flatMap(([module, spec]) =>
  Object.keys(spec.methods).map((method) => `${module}.${method}`),
);

export type AllowList = ReadonlySet<string>;

/** Modules a deployment enables only by naming them in its allow-list: they reach another service. */
export const OFF_BY_DEFAULT: readonly string[] = ["tools"];

/** The allow-list when a deployment sets none: every method but those of OFF_BY_DEFAULT modules. */
export const DEFAULT_ALLOW_LIST: AllowList = new Set(ALL_METHODS.filter((name) => !OFF_BY_DEFAULT.includes(name.split(".")[0]!)));

/** The modules with at least one allowed method. */
export const modulesAllowed = (allowed: AllowList): string[] =>
  Object.keys(MODULES).filter((module) => [...allowed].some((name) => name.startsWith(`${module}.`)));

/**
 * "calendar.read,contacts.*" -> the set of allowed "module.method" names. "*" allows all.
 * An entry naming nothing that exists is an error: a typo must not silently allow less.
 */
export function parseAllowList(spec: string): AllowList {
  const allowed = new Set<string>();
  for (const entry of spec
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean)) {
    const matches =
      entry === "*"
        ? ALL_METHODS
        : entry.endsWith(".*")
          ? ALL_METHODS.filter((name) => name.startsWith(entry.slice(0, -1)))
          : ALL_METHODS.filter((name) => name === entry);
    if (matches.length === 0) throw new Error(`allow-list entry "${entry}" matches no method; known: ${ALL_METHODS.join(", ")}`);
    for (const name of matches) allowed.add(name);
  }
  return allowed;
}

/** Narrowing only: the result never contains a method the narrower list did not allow. */
export function intersectAllowLists(...lists: Array<AllowList | undefined>): AllowList | undefined {
  const defined = lists.filter((list): list is AllowList => list !== undefined);
  if (defined.length === 0) return undefined;
  return new Set(ALL_METHODS.filter((name) => defined.every((list) => list.has(name))));
}
