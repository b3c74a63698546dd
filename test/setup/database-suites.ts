// Vitest global setup of the projects that talk to the database (data, worker). Vitest runs a
// project's global setup only when the run includes tests of that project, so unit tests start
// no database. The projects share one stack: the first setup starts it, the last teardown
// stops it (global setups of all projects run in this one Node process).
import type { TestProject } from "vitest/node";
import type { LocalStackInfo } from "../support/stack-info.ts";
import { startLocalStack } from "./local-stack.ts";

interface Shared {
  stack: ReturnType<typeof startLocalStack>;
  users: number;
}

const KEY = Symbol.for("edge-agent.test.local-stack");
const registry = globalThis as { [KEY]?: Shared };

export default async function setup(project: TestProject) {
  registry[KEY] ??= { stack: startLocalStack(), users: 0 };
  const shared = registry[KEY];
  shared.users += 1;
  const { info } = await shared.stack;
  project.provide("localStack", info satisfies LocalStackInfo);
  return async () => {
    shared.users -= 1;
    if (shared.users > 0) return;
    delete registry[KEY];
    await (await shared.stack).stop();
  };
}
