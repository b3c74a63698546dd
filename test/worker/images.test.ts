// Images sent inline stay in history: stored under the user's own prefix (R2, local binding),
// listed by history with this API's image route, served back byte for byte to their owner only,
// never as a type a browser would execute; the intent stage is told an image came; a storage
// outage loses the image, not the run.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, test } from "vitest";
import { createApp } from "../../functions/agent/app.ts";
import { EventType, freshUser, runAgentRequest, runInput, tokenFor } from "./support/agent.ts";

let owner: string;
let stranger: string;

beforeAll(async () => {
  [owner, stranger] = await Promise.all([freshUser().then((u) => tokenFor(u.id)), freshUser().then((u) => tokenFor(u.id))]);
});

// A 1x1 PNG.
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
const bytesOf = (base64: string) => Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));

function imageRun(token: string, mimeType: string, options: { threadId?: string; env?: Record<string, unknown>; text?: string } = {}) {
  const input = runInput("x", {
    ...(options.threadId ? { threadId: options.threadId } : {}),
    messages: [
      {
        id: crypto.randomUUID(),
        role: "user",
        content: [
          { type: "text", text: options.text ?? "What is on this poster?" },
          { type: "image", source: { type: "data", value: PNG, mimeType } },
        ],
      },
    ],
  });
  return runAgentRequest({
    token,
    input,
    ...(options.env ? { env: options.env } : {}),
    script: { intent: { objective: "read the poster", requires_tool: false }, steps: [{ text: "A concert." }] },
  }).then((result) => ({ ...result, input }));
}

const get = (token: string, path: string) => createApp().request(path, { headers: { authorization: `Bearer ${token}` } }, env);

async function historyOf(token: string, threadId: string) {
  const response = await get(token, `/api/v1/agent/threads/${threadId}/history`);
  return (await response.json()) as { messages: Array<{ role: string; metadata: { attachments?: Array<Record<string, unknown>> } }> };
}

describe("inline images", () => {
  test("history lists the image with its route; the owner gets the same bytes back; nobody else does", async () => {
    const { input, events, intent } = await imageRun(owner, "image/png");
    expect(events.at(-1)?.type).toBe(EventType.RUN_FINISHED);
    expect(JSON.stringify(intent.doStreamCalls[0]!.prompt)).toContain("What is on this poster? [1 image attached]");

    const user = (await historyOf(owner, input.threadId)).messages.find((message) => message.role === "user")!;
    const url = `/api/v1/agent/runs/${input.runId}/images/0`;
    expect(user.metadata.attachments).toEqual([{ type: "image", mimeType: "image/png", inlineBytes: bytesOf(PNG).length, url }]);

    const image = await get(owner, url);
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toBe("image/png");
    expect(image.headers.get("x-content-type-options")).toBe("nosniff");
    expect(new Uint8Array(await image.arrayBuffer())).toEqual(bytesOf(PNG));

    expect((await get(stranger, url)).status).toBe(404);
    expect((await get(owner, `/api/v1/agent/runs/${input.runId}/images/1`)).status).toBe(404);
    expect((await get(owner, `/api/v1/agent/runs/${input.runId}/images/-1`)).status).toBe(400);
  });

  test("a type a browser could run (SVG) is served as plain bytes to download", async () => {
    const { input } = await imageRun(owner, "image/svg+xml");
    const image = await get(owner, `/api/v1/agent/runs/${input.runId}/images/0`);
    expect(image.headers.get("content-type")).toBe("application/octet-stream");
    expect(image.headers.get("content-disposition")).toBe("attachment");
    expect(image.headers.get("content-security-policy")).toContain("default-src 'none'");
  });

  test("a later turn's intent stage is told the earlier message had an image", async () => {
    const { input } = await imageRun(owner, "image/png");
    const next = await runAgentRequest({
      token: owner,
      input: runInput("And when does it start?", { threadId: input.threadId }),
      script: { intent: { objective: "concert time", requires_tool: false }, steps: [{ text: "At eight." }] },
    });
    expect(JSON.stringify(next.intent.doStreamCalls[0]!.prompt)).toContain("What is on this poster? [1 image attached]");
  });

  test("storage down: the run finishes, history still lists the image, and its route answers 404", async () => {
    const broken = { put: async () => Promise.reject(new Error("R2 down")), get: async () => Promise.reject(new Error("R2 down")) };
    const { input, events } = await imageRun(owner, "image/png", { env: { PAYLOADS: broken } });
    expect(events.at(-1)?.type).toBe(EventType.RUN_FINISHED);
    expect((await get(owner, `/api/v1/agent/runs/${input.runId}/images/0`)).status).toBe(404);
  });
});
