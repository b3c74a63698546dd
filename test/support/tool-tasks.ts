// Test helpers for Tool Agent tasks: wait for a task to end, and build a repository archive the
// way GitHub serves one (a .tar.gz whose entries share one top-level folder).
import { gzipSync } from "node:zlib";
import type { ToolAgentDev } from "./tool-agent-dev.ts";

/** Polls GET /tasks/{id} until the task is completed or failed; answers its last view. */
export async function waitForTask(agent: ToolAgentDev, key: string, taskId: string, timeoutMs = 60_000): Promise<any> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const response = await agent.call(`/tasks/${taskId}`, { key });
    if (response.status !== 200) throw new Error(`GET /tasks/${taskId} answered ${response.status}: ${await response.text()}`);
    const task = await response.json();
    if (task.status === "completed" || task.status === "failed") return task;
    if (Date.now() > until)
      throw new Error(`task ${taskId} still ${task.status} after ${timeoutMs} ms: ${JSON.stringify(task).slice(0, 2_000)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

function header(name: string, size: number): Buffer {
  const block = Buffer.alloc(512);
  block.write(name, 0, 100, "utf8");
  block.write("0000644\0", 100);
  block.write("0000000\0", 108);
  block.write("0000000\0", 116);
  block.write(`${size.toString(8).padStart(11, "0")}\0`, 124);
  block.write(
    `${Math.floor(Date.now() / 1000)
      .toString(8)
      .padStart(11, "0")}\0`,
    136,
  );
  block.write(name.endsWith("/") ? "5" : "0", 156);
  block.write("ustar\0", 257);
  block.write("00", 263);
  block.fill(" ", 148, 156);
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148);
  return block;
}

/** A gzipped tar of `files` under `top/`, as GitHub's archive of a repository. */
export function repositoryArchive(top: string, files: Record<string, string>): Buffer {
  const parts: Buffer[] = [header(`${top}/`, 0)];
  for (const [path, content] of Object.entries(files)) {
    const body = Buffer.from(content, "utf8");
    parts.push(header(`${top}/${path}`, body.length), body, Buffer.alloc((512 - (body.length % 512)) % 512));
  }
  parts.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(parts));
}
