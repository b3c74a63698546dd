// zod 4 for the Worker's bundle (wrangler.toml [alias] maps "zod" and "zod/v4" here, and
// "zod/v4/core" to zod-core.js): the exports of zod/v4/classic/external.js, which every
// `import { z } from "zod"` reaches, with three parts the Worker never runs left out:
// - `locales` holds English only. esbuild cannot drop the other 40 on its own: `z` is a
//   namespace object, and once code imports it as a value (ours, @ai-sdk/openai, @ag-ui/core
//   all do) every export of it is kept, 258 KiB minified of messages nobody is sent. English
//   stays the default (classic/schemas.js sets it).
// - `compile` (zod-compile.js) generates code with `new Function`, which Workers forbid.
// - `fromJSONSchema`: the Worker's schemas are all written in code.
// test/unit/bundle/zod-mirror.test.ts fails when a zod upgrade changes the export list, and
// checks every other export is zod's own. The classic modules are not in zod's package
// exports, hence the paths into node_modules.
import { NotBundledError } from "./not-bundled.ts";
import * as z from "./zod.js";

export * from "../../node_modules/zod/v4/classic/checks.js";
export * as coerce from "../../node_modules/zod/v4/classic/coerce.js";
export * from "../../node_modules/zod/v4/classic/compat.js";
export { deepPartial } from "../../node_modules/zod/v4/classic/deep-partial.js";
export * from "../../node_modules/zod/v4/classic/errors.js";
export { input, output } from "../../node_modules/zod/v4/classic/in-out.js";
export * as iso from "../../node_modules/zod/v4/classic/iso.js";
export { ZodISODate, ZodISODateTime, ZodISODuration, ZodISOTime } from "../../node_modules/zod/v4/classic/iso.js";
export * from "../../node_modules/zod/v4/classic/parse.js";
export * from "../../node_modules/zod/v4/classic/schemas.js";
export { toJSONSchema } from "../../node_modules/zod/v4/core/json-schema-processors.js";
export * as core from "./zod-core.js";
export {
  $brand,
  $input,
  $output,
  clone,
  compile,
  config,
  flattenError,
  formatError,
  getDiscriminatedOption,
  globalRegistry,
  INVALID,
  memoizer,
  NEVER,
  prettifyError,
  regexes,
  registry,
  TimePrecision,
  toZod,
  treeifyError,
  util,
  withParser,
  ZodCompileAsyncError,
  ZodCompileUnsupportedError,
} from "./zod-core.js";
export * as locales from "./zod-locales-en.js";
export { z, z as default };

/** Building schemas from JSON Schema at run time: the agent Worker's schemas are all written in code. */
export const fromJSONSchema = () => {
  throw new NotBundledError("zod's fromJSONSchema");
};
