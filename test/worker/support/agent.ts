// Helpers for agent-run tests inside workerd: scripted models (the only test double), a
// request helper, an SSE parser, and AG-UI's own verifier.
import { type BaseEvent, EventType, verifyEvents } from "@ag-ui/client";
import type { LanguageModelV4StreamPart, LanguageModelV4Usage } from "@ai-sdk/provider";
import { simulateReadableStream } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { env } from "cloudflare:workers";
import { lastValueFrom, from, toArray } from "rxjs";
import { inject } from "vitest";
import { createApp } from "../../../functions/agent/app.ts";
import type { RouterOutput } from "../../../functions/agent/runtime/intent.ts";
import type { AgentModels } from "../../../functions/agent/runtime/models.ts";
import { accessTokenClaims, signAccessToken } from "../../../supabase/local/auth-tokens.ts";

const usage: LanguageModelV4Usage = {
  inputTokens: { total: 100, noCache: 100, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 10, text: 10, reasoning: 0 },
};

export type ScriptedStep =
  | { tool: string; input: unknown }
  | { tools: Array<{ tool: string; input: unknown }> }
  | { text: string }
  | { fail: Error };

function streamFor(step: ScriptedStep, index: number) {
  if ("fail" in step) return { stream: simulateReadableStream<LanguageModelV4StreamPart>({ chunks: [{ type: "error", error: step.fail }] }) };
  const chunks: LanguageModelV4StreamPart[] = [{ type: "stream-start", warnings: [] }];
  if ("text" in step) {
    const id = `text-${index}`;
    chunks.push({ type: "text-start", id });
    for (const word of step.text.split(/(?<= )/)) chunks.push({ type: "text-delta", id, delta: word });
    chunks.push({ type: "text-end", id }, { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage });
  } else {
    const calls = "tools" in step ? step.tools : [step];
    calls.forEach((call, n) => chunks.push({ type: "tool-call", toolCallId: `call-${index}-${n}`, toolName: call.tool, input: JSON.stringify(call.input) }));
    chunks.push({ type: "finish", finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage });
  }
  return { stream: simulateReadableStream({ chunks }) };
}

export interface Script {
  intent: RouterOutput | Error;
  steps: ScriptedStep[];
}

export function scriptedModels(script: Script) {
  const intent = new MockLanguageModelV4({
    doGenerate: async () => {
      if (script.intent instanceof Error) throw script.intent;
      return { content: [{ type: "text", text: JSON.stringify(script.intent) }], finishReason: { unified: "stop", raw: "stop" }, usage, warnings: [] };
    },
  });
  const execution = new MockLanguageModelV4({ doStream: script.steps.map(streamFor) });
  const models: AgentModels = { intent, execution, labels: { intent: "mock-intent", execution: "mock-execution" }, demo: false };
  return { models, intent, execution };
}

export async function tokenFor(userId: string): Promise<string> {
  return signAccessToken(inject("localStack").keys, accessTokenClaims(userId));
}

export function runInput(text: string, overrides: Record<string, unknown> = {}) {
  return {
    threadId: `thread-${crypto.randomUUID()}`,
    runId: `run-${crypto.randomUUID()}`,
    messages: [{ id: crypto.randomUUID(), role: "user", content: text }],
    state: {},
    tools: [],
    context: [],
    forwardedProps: { timezone: "UTC" },
    ...overrides,
  };
}

export function parseSse(text: string): BaseEvent[] {
  return text
    .split("\n\n")
    .filter((frame) => frame.trim() !== "")
    .map((frame) => JSON.parse(frame.split("\n").filter((line) => line.startsWith("data: ")).map((line) => line.slice(6)).join("\n")) as BaseEvent);
}

/** Runs one request through the Worker app with scripted models and the test env. */
export async function runAgentRequest(options: { script: Script; token: string; input: unknown; env?: Record<string, unknown> }) {
  const scripted = scriptedModels(options.script);
  const app = createApp({ models: () => scripted.models });
  const response = await app.request(
    "/api/v1/agent/runs",
    { method: "POST", headers: { authorization: `Bearer ${options.token}`, "content-type": "application/json", accept: "text/event-stream" }, body: JSON.stringify(options.input) },
    { ...env, ...options.env },
  );
  const text = await response.text();
  return { response, text, events: response.ok ? parseSse(text) : [], ...scripted };
}

/** AG-UI's own event verifier (the one HttpAgent applies): throws on an invalid sequence. */
export async function verify(events: BaseEvent[]): Promise<void> {
  await lastValueFrom(from(events).pipe(verifyEvents(false), toArray()));
}

export const ofType = (events: BaseEvent[], type: EventType) => events.filter((event) => event.type === type);
export { EventType };

/** A brand-new user in the main data plane (created by the global setup's control server). */
export async function freshUser(): Promise<{ id: string; phone: string; email: string }> {
  const response = await fetch(`${inject("localStack").outage.controlUrl}/users`, { method: "POST" });
  if (!response.ok) throw new Error(`could not create a user: ${await response.text()}`);
  return response.json();
}
