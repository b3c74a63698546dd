// The Worker's bundle gets zod through functions/bundle/zod.js and zod-core.js (wrangler.toml
// [alias]). They must be zod, minus the parts the Worker never runs: the same export names,
// and every other export zod's own object (so `instanceof` and the global registry still work
// across our code and the AI SDK's).

import { describe, expect, it } from "vitest";
import * as zod from "zod/v4";
import * as zodCore from "zod/v4/core";
import { NotBundledError } from "../../../functions/bundle/not-bundled.ts";
import * as mirror from "../../../functions/bundle/zod.js";
import * as mirrorCore from "../../../functions/bundle/zod-core.js";

const LEFT_OUT = new Set(["z", "default", "core", "locales", "compile", "fromJSONSchema"]);
const LEFT_OUT_OF_CORE = new Set(["locales", "compile", "compileFn"]);

describe("the bundle's zod", () => {
  it("exports exactly zod/v4's names, each zod's own but the ones left out", () => {
    expect(Object.keys(mirror).sort()).toEqual(Object.keys(zod).sort());
    const mirrored = new Map(Object.entries(mirror));
    const shared = Object.entries(zod).filter(([key]) => !LEFT_OUT.has(key));
    expect(shared.length).toBeGreaterThan(100);
    for (const [key, value] of shared) expect(mirrored.get(key), key).toBe(value);
    expect(mirror.z).toBe(mirror);
    expect(mirror.default).toBe(mirror);
    expect(mirror.core).toBe(mirrorCore);
  });

  it("exports exactly zod/v4/core's names, each zod's own but the ones left out", () => {
    expect(Object.keys(mirrorCore).sort()).toEqual(Object.keys(zodCore).sort());
    const mirrored = new Map(Object.entries(mirrorCore));
    for (const [key, value] of Object.entries(zodCore)) if (!LEFT_OUT_OF_CORE.has(key)) expect(mirrored.get(key), key).toBe(value);
  });

  it("keeps English, the only locale, as the default", () => {
    expect(Object.keys(mirror.locales)).toEqual(["en"]);
    expect(mirror.locales.en).toBe(zod.locales.en);
    expect(mirror.z.string().safeParse(1).error?.issues[0]?.message).toBe("Invalid input: expected string, received number");
  });

  it("refuses what it left out with an error that says so", () => {
    expect(() => mirrorCore.compile(mirror.z.string())).toThrow(zodCore.ZodCompileUnsupportedError);
    expect(() => mirror.fromJSONSchema({ type: "string" })).toThrow(NotBundledError);
  });

  it("parses with the schemas built from it, as zod does", () => {
    const schema = mirror.z.object({ when: mirror.z.iso.datetime({ offset: true }), count: mirror.z.coerce.number().int() });
    expect(schema.parse({ when: "2026-11-22T10:00:00+01:00", count: "3" })).toEqual({ when: "2026-11-22T10:00:00+01:00", count: 3 });
    expect(schema.safeParse({ when: "yesterday", count: 1 }).success).toBe(false);
    expect(schema instanceof zod.ZodObject).toBe(true);
  });
});
