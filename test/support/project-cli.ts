// Calling project_cli as a given user, the way the runtime will: the router, with a
// supabase-js client carrying that user's controlled credential.
import type { CliContext } from "../../functions/project_cli/context.ts";
import { MODULES } from "../../functions/project_cli/registry.ts";
import type { CliFailure, CliResult, CliSuccess } from "../../functions/project_cli/result.ts";
import { type RunOptions, runProjectCli } from "../../functions/project_cli/router.ts";
import { clientAs } from "./users.ts";

export interface CliCaller {
  userId: string;
  call(module: string, method: string, input: unknown, options?: RunOptions): Promise<CliResult>;
  /** Calls and insists on success: the data, typed loosely for assertions. */
  ok(module: string, method: string, input: unknown): Promise<any>;
  /** Calls and insists on failure: the error. */
  fail(module: string, method: string, input: unknown): Promise<CliFailure["error"]>;
}

export async function cliAs(userId: string): Promise<CliCaller> {
  const ctx: CliContext = { db: await clientAs(userId), userId };
  const call = (module: string, method: string, input: unknown, options?: RunOptions) =>
    runProjectCli({ module, method, input }, ctx, options);
  return {
    userId,
    call,
    async ok(module, method, input) {
      const result = await call(module, method, input);
      if (!result.ok) throw new Error(`${module}.${method} failed: ${JSON.stringify(result.error)}`);
      // Every real answer is what the method declares (its results.ts schema).
      const declared = MODULES[module]!.methods[method]!.result.safeParse(result.data);
      if (!declared.success) throw new Error(`${module}.${method} answered outside its declared result: ${declared.error.message}`);
      return (result as CliSuccess<any>).data;
    },
    async fail(module, method, input) {
      const result = await call(module, method, input);
      if (result.ok) throw new Error(`${module}.${method} unexpectedly succeeded: ${JSON.stringify(result.data)}`);
      return result.error;
    },
  };
}
