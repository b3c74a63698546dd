// What a task's workspace holds before the coding agent starts: nothing for a build; the
// repository's files for a deploy (downloaded with a deadline and a size cap); for a repair, the
// tool's registration (tool.json), its module if storage still has it, and the tests it was
// registered with. A problem no retry can fix is a TaskFailure.
import { withinDeadline } from "../bounded.ts";
import { testsKey } from "../coding/candidate-registration.ts";
import { pathProblem, WORKSPACE_LIMITS, type Workspace } from "../coding/workspace.ts";
import type { ToolDatabase } from "../database.ts";
import { readAtMost } from "../read-bytes.ts";
import { getTool } from "../registry/tool-store.ts";
import { activeSource } from "../registry/tool-view.ts";
import { moduleKey } from "../sources/local-source.ts";
import { ArchiveError, archiveUrl, unpackArchive } from "./archive.ts";
import type { TaskRow } from "./task-store.ts";

/** A task that cannot succeed however often it is tried. */
export class TaskFailure extends Error {
  override readonly name = "TaskFailure";
}

export interface PrepareDeps {
  workspace: Workspace;
  db: ToolDatabase;
  code: R2Bucket;
  timeoutMs: number;
  archiveMaxBytes: number;
  fetch?: typeof fetch;
}

async function download(url: string, maxBytes: number, timeoutMs: number, fetcher: typeof fetch): Promise<Uint8Array> {
  let response: Response;
  try {
    response = await fetcher(url, { signal: AbortSignal.timeout(timeoutMs), redirect: "follow" });
  } catch (error) {
    // Unreachable or slow: a retry may do better.
    throw new Error(`the repository could not be downloaded (${(error as Error).name})`);
  }
  if (response.status >= 400 && response.status < 500) {
    await response.body?.cancel();
    throw new TaskFailure(`the repository could not be downloaded: HTTP ${response.status} from ${new URL(url).host}`);
  }
  if (!response.ok || !response.body) throw new Error(`the repository could not be downloaded: HTTP ${response.status}`);
  const bytes = await readAtMost(response.body, maxBytes);
  if (!bytes) throw new TaskFailure(`the repository's archive is larger than ${maxBytes} bytes (TOOL_AGENT_ARCHIVE_MAX_BYTES)`);
  return bytes;
}

async function deployFiles(task: TaskRow, deps: PrepareDeps): Promise<string[]> {
  const repoUrl = String((task.task_spec as { repo_url?: unknown }).repo_url ?? "");
  const bytes = await download(archiveUrl(repoUrl), deps.archiveMaxBytes, 30_000, deps.fetch ?? fetch);
  let files: Awaited<ReturnType<typeof unpackArchive>>;
  try {
    files = await unpackArchive(bytes, deps.archiveMaxBytes * 4);
  } catch (error) {
    if (error instanceof ArchiveError) throw new TaskFailure(`the repository's archive could not be read: ${error.message}`);
    throw new TaskFailure("the repository's download is not a .tar.gz or .tar archive");
  }
  const usable = files.filter((file) => !pathProblem(file.path)).slice(0, WORKSPACE_LIMITS.files);
  if (!usable.some((file) => file.path === "tool.json")) {
    throw new TaskFailure("the repository has no tool.json at its root (the registration: tool_id, name, description, input_schema)");
  }
  for (const file of usable) await deps.workspace.write(file.path, file.content);
  return usable.map((file) => file.path);
}

async function repairFiles(task: TaskRow, deps: PrepareDeps): Promise<string[]> {
  const stored = task.tool_id ? await getTool(deps.db, task.tool_id) : null;
  if (!stored) throw new TaskFailure(`the tool ${task.tool_id} is no longer registered`);
  const { tool_id, name, description, category, input_schema, output_schema } = stored.tool;
  const written = ["tool.json"];
  await deps.workspace.write("tool.json", JSON.stringify({ tool_id, name, description, category, input_schema, output_schema }, null, 2));
  const read = async (key: string) => (await withinDeadline(deps.code.get(key), deps.timeoutMs, "reading the tool's files"))?.text();
  const source = activeSource(stored);
  const module = source?.type === "local" && source.host_dir ? await read(moduleKey(source.host_dir)) : undefined;
  const tests = await read(testsKey(tool_id));
  for (const [path, content] of [
    ["tool.js", module],
    ["tests.json", tests],
  ] as const) {
    if (!content) continue;
    await deps.workspace.write(path, content);
    written.push(path);
  }
  return written;
}

/** Fills the workspace; answers the files it holds. */
export async function prepareWorkspace(task: TaskRow, deps: PrepareDeps): Promise<string[]> {
  switch (task.kind) {
    case "build_tool":
      return [];
    case "github_deploy":
      return deployFiles(task, deps);
    case "repair_tool":
      return repairFiles(task, deps);
  }
}
