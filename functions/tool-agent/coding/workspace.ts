// A task's workspace: the files the coding agent writes and reads (write_file, read_file), kept in
// object storage under `tasks/<task_id>/`, so a task that is retried or resumed after a restart
// finds what it already wrote. Paths are checked before any storage call: a model's path is
// untrusted input.
import { withinDeadline } from "../bounded.ts";

export const WORKSPACE_LIMITS = { files: 32, bytesPerFile: 256 * 1024 } as const;

/** Up to four parts of letters, digits, `_`, `-` and `.`, none starting with a dot (so no `..`). */
const PATH = /^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,63}(\/[A-Za-z0-9_-][A-Za-z0-9_.-]{0,63}){0,3}$/;

/** What is wrong with a workspace path, or undefined. */
export function pathProblem(path: string): string | undefined {
  if (!PATH.test(path)) {
    return "a workspace path is 1 to 4 parts of letters, digits, _, - and . (not starting with a dot), separated by /, like tool.js or src/util.js";
  }
  return undefined;
}

export interface Workspace {
  write(path: string, content: string): Promise<{ size: number }>;
  /** null when there is no such file. */
  read(path: string): Promise<string | null>;
  list(): Promise<string[]>;
}

export class WorkspaceError extends Error {
  override readonly name = "WorkspaceError";
}

export function objectWorkspace(bucket: R2Bucket, taskId: string, timeoutMs: number): Workspace {
  const prefix = `tasks/${taskId}/`;
  const keyOf = (path: string) => {
    const problem = pathProblem(path);
    if (problem) throw new WorkspaceError(problem);
    return `${prefix}${path}`;
  };
  const list = async () => {
    const page = await withinDeadline(bucket.list({ prefix, limit: WORKSPACE_LIMITS.files + 1 }), timeoutMs, "listing the workspace");
    return page.objects.map((object) => object.key.slice(prefix.length));
  };
  return {
    list,
    async write(path, content) {
      const key = keyOf(path);
      const size = new TextEncoder().encode(content).byteLength;
      if (size > WORKSPACE_LIMITS.bytesPerFile) throw new WorkspaceError(`a file may hold at most ${WORKSPACE_LIMITS.bytesPerFile} bytes`);
      const existing = await list();
      if (!existing.includes(path) && existing.length >= WORKSPACE_LIMITS.files) {
        throw new WorkspaceError(`a workspace holds at most ${WORKSPACE_LIMITS.files} files`);
      }
      await withinDeadline(bucket.put(key, content), timeoutMs, "writing a workspace file");
      return { size };
    },
    async read(path) {
      const object = await withinDeadline(bucket.get(keyOf(path)), timeoutMs, "reading a workspace file");
      return object ? object.text() : null;
    },
  };
}
