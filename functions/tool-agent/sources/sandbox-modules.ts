// The modules one local tool runs as in the sandbox: the author's module with its loops guarded
// (loop-guard.ts), the step counter, and an entry that resets the counter for each call and hands
// the request to the tool. Pure, so the exact code the sandbox loads is unit-tested.
import { guardLoops, stepCounterModule, ToolCodeError } from "./loop-guard.ts";

export interface SandboxModules {
  mainModule: string;
  modules: Record<string, string>;
}

/**
 * `nonce` names the counter module and the step function: a tool cannot import or shadow what
 * it cannot name when it is written.
 */
export function sandboxModules(source: string, options: { stepLimit: number; nonce: string }): SandboxModules {
  if (!/^[a-z0-9]{8,32}$/.test(options.nonce)) throw new Error("nonce must be 8..32 lowercase letters and digits");
  const step = `__step_${options.nonce}`;
  const counter = `guard_${options.nonce}.js`;
  // On the module's first line, so the author's line numbers stay what they wrote.
  const tool = `import { step as ${step} } from "./${counter}"; ${guardLoops(source, step)}`;
  const entry = `import tool from "./tool.js";
import { reset } from "./${counter}";
export default {
  async fetch(request, env, ctx) {
    reset();
    return tool.fetch(request, env, ctx);
  },
};
`;
  return { mainModule: "entry.js", modules: { "entry.js": entry, "tool.js": tool, [counter]: stepCounterModule(options.stepLimit) } };
}

/** A local tool's module must parse and export a default object with a fetch handler. */
export function checkToolModule(source: string): void {
  guardLoops(source, "__step_check"); // parses; throws ToolCodeError with line and column
  if (!/\bexport\s+default\b/.test(source)) {
    throw new ToolCodeError("the tool's module must `export default { async fetch(request) { ... } }`");
  }
}
