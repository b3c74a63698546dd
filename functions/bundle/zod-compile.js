// zod's `compile` for the Worker's bundle. zod compiles a schema into a parser by generating
// code and running it with `new Function`, which Workers forbid (no code generation from
// strings), so there it could only ever fail. This keeps zod's own error for that case and
// leaves the 31 KiB code generator out; everything else in the module is zod's own.
import { ZodCompileUnsupportedError } from "../../node_modules/zod/v4/core/compile.js";

export { INVALID, withParser, ZodCompileAsyncError, ZodCompileUnsupportedError } from "../../node_modules/zod/v4/core/compile.js";

const unavailable = () => {
  throw new ZodCompileUnsupportedError("any schema here: Workers do not allow code generation (new Function)");
};
export const compile = unavailable;
export const compileFn = unavailable;
