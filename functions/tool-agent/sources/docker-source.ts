// A `docker` source: the tool runs in a container and answers HTTP on its internal_port. Each
// tool has one container, owned by its ToolContainer Durable Object (containers/): started on
// the first call or on /start, reached through it, stopped on /stop, idle or eviction. Without a
// container runtime the source is unreachable and the next source is tried.
import { withDeadline } from "../../lib/bounded-fetch.ts";
import { CONTAINER_CONTROL_MS, withinDeadline } from "../bounded.ts";
import { type ContainerLimits, recordAccess, recordStarted, recordStopped } from "../containers/container-records.ts";
import type { ContainerState, ToolContainer } from "../containers/tool-container.ts";
import type { ToolDatabase } from "../database.ts";
import type { SourceRow, ToolRow } from "../tool-types.ts";
import { type AnswerMode, answerOf, type SourceOutcome, toolRequest, unreachable } from "./tool-http.ts";

export interface DockerOptions {
  containers: DurableObjectNamespace<ToolContainer>;
  db: ToolDatabase;
  limits: ContainerLimits;
  timeoutMs: number;
  maxBodyBytes: number;
}

type Containers = DockerOptions["containers"];
const containerOf = (containers: Containers, toolId: string) => containers.get(containers.idFromName(toolId));

/** Starts the tool's container unless it runs; records a ContainerInfo row when it starts. */
export async function startContainer(tool: ToolRow, source: SourceRow, options: DockerOptions): Promise<ContainerState> {
  const { state, started } = await withinDeadline(
    containerOf(options.containers, tool.tool_id).ensureStarted({
      toolId: tool.tool_id,
      image: source.image ?? "",
      internalPort: source.internal_port ?? 0,
    }),
    CONTAINER_CONTROL_MS,
    "starting the container",
  );
  if (started && state.container_id) {
    await recordStopped(options.db, tool.tool_id); // a container it replaced
    await recordStarted(
      options.db,
      tool.tool_id,
      { id: state.container_id, image: source.image ?? "", internalPort: source.internal_port ?? 0 },
      options.limits,
    );
  }
  return state;
}

/** Stops the tool's container, if it has one; answers the ids recorded as destroyed. */
export async function stopContainer(toolId: string, containers: Containers, db: ToolDatabase): Promise<string[]> {
  await withinDeadline(containerOf(containers, toolId).stop(), CONTAINER_CONTROL_MS, "stopping the container");
  return recordStopped(db, toolId);
}

export async function containerRunning(toolId: string, containers: Containers): Promise<boolean> {
  return (await withinDeadline(containerOf(containers, toolId).status(), CONTAINER_CONTROL_MS, "reading the container's state")).running;
}

export async function callDocker(
  tool: ToolRow,
  source: SourceRow,
  params: Record<string, unknown>,
  options: DockerOptions,
  mode: AnswerMode = "json",
): Promise<SourceOutcome> {
  let state: ContainerState;
  try {
    state = await startContainer(tool, source, options);
  } catch (error) {
    return unreachable(`the container (${source.image}) could not start: ${(error as Error).message}`);
  }
  const timeoutMs = source.timeout_ms ?? options.timeoutMs;
  try {
    // The deadline covers the whole answer, body included.
    const outcome = await withDeadline(
      containerOf(options.containers, tool.tool_id)
        .forward(toolRequest(`http://container${source.endpoint_path}`, source, params))
        .then((response) => answerOf(response, options.maxBodyBytes, mode, timeoutMs)),
      timeoutMs,
      "the container",
    );
    if (state.container_id) await recordAccess(options.db, state.container_id);
    return outcome;
  } catch (error) {
    return unreachable(`the container (${source.image}) did not answer: ${(error as Error).message.split("\n")[0]}`);
  }
}
