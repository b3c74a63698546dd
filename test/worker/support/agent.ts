// Helpers for agent-run tests inside workerd: scripted models (the only test double), a
// request helper, an SSE parser, and AG-UI's own verifier.

import { env } from "cloudflare:workers";
import { type BaseEvent, EventType, verifyEvents } from "@ag-ui/client";
import { from, lastValueFrom, toArray } from "rxjs";
import { inject } from "vitest";
import { createApp } from "../../../functions/agent/app.ts";
import type { IntentOutput } from "../../../functions/agent/runtime/intent.ts";
import type { AgentModels } from "../../../functions/agent/runtime/models.ts";
import { accessTokenClaims, signAccessToken } from "../../../supabase/local/auth-tokens.ts";
import { type ScriptedStep, scriptedPair } from "../../support/scripted-model.ts";
import { parseSseEvents } from "../../support/sse-events.ts";

export type { ScriptedStep };

export interface Script {
  intent: IntentOutput | Error;
  steps: ScriptedStep[];
}

export function scriptedModels(script: Script) {
  const { intent, execution } = scriptedPair(script.intent, script.steps);
  const models: AgentModels = {
    intent,
    execution,
    labels: { intent: "mock-intent", execution: "mock-execution" },
    provider: "mock",
    demo: false,
  };
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

export const parseSse = (text: string): BaseEvent[] => parseSseEvents(text) as BaseEvent[];

/** Runs one request through the Worker app with scripted models and the test env. */
export async function runAgentRequest(options: { script: Script; token: string; input: unknown; env?: Record<string, unknown> }) {
  const scripted = scriptedModels(options.script);
  const app = createApp({ models: () => scripted.models });
  const response = await app.request(
    "/api/v1/agent/runs",
    {
      method: "POST",
      headers: { authorization: `Bearer ${options.token}`, "content-type": "application/json", accept: "text/event-stream" },
      body: JSON.stringify(options.input),
    },
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
