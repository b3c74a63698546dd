// What a follow-up costs, on the real runtime and data plane with scripted models: a thread
// where turn 1 creates an event and turn 2 says "move it to 5pm". Prints, measured:
//   - the intent stage's prompt tokens (o200k_base) for turn 2, with the earlier tool turn as
//     it is now recorded (its summary plus the ids it touched) and as it was before (the
//     summary alone);
//   - model calls and prompt tokens of turn 2's worker on both paths: naming the event from
//     the intent output (update, answer) and, without the id, finding it first (read, update,
//     answer). Which path a real model takes is not measured here: there is none offline. The
//     tests show the id reaches the worker (test/worker/follow-ups.test.ts).
// Run: npm run bench:follow-ups
import type { LanguageModelV4CallOptions } from "@ai-sdk/provider";
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { createRunRecorder } from "../../functions/agent/persistence/run-recorder.ts";
import type { IntentOutput } from "../../functions/agent/runtime/intent.ts";
import { runAgent } from "../../functions/agent/runtime/run-agent.ts";
import type { RunRequest } from "../../functions/agent/runtime/run-request.ts";
import { createUserDatabase } from "../../functions/lib/user-database.ts";
import { SEEDED_USERS } from "../../supabase/local/auth-tokens.ts";
import { type ScriptedStep, scriptedPair } from "../support/scripted-model.ts";
import { startRuntimeStack } from "./support/runtime-stack.ts";

const tokens = (options: LanguageModelV4CallOptions) =>
  encode(
    options.prompt.map((message) => (typeof message.content === "string" ? message.content : JSON.stringify(message.content))).join("\n"),
  ).length + (options.tools?.length ? encode(JSON.stringify(options.tools)).length : 0);
const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
const cal = (method: string, input: unknown): ScriptedStep => ({ tool: "project_cli", input: { module: "calendar", method, input } });

const { plane, settings, skills } = await startRuntimeStack();
try {
  const userId = SEEDED_USERS.alice.id;
  const db = await createUserDatabase(settings, userId);
  const request = (threadId: string, text: string): RunRequest => ({
    threadId,
    runId: crypto.randomUUID(),
    userMessageId: crypto.randomUUID(),
    conversation: [{ role: "user", text }],
    userContent: text,
    attachments: [],
    timezone: "UTC",
    locale: "en",
  });
  async function turn(threadId: string, text: string, intentOutput: IntentOutput, steps: ScriptedStep[]) {
    const { intent, execution } = scriptedPair(intentOutput, steps);
    const req = request(threadId, text);
    const events: Array<{ type: string; content?: unknown }> = [];
    await runAgent(
      req,
      {
        models: { intent, execution, labels: { intent: "mock", execution: "mock" }, provider: "mock", demo: false },
        cli: { db, userId },
        skills,
        agent: settings.agent,
        recorder: createRunRecorder({ db, userId, request: req, models: { intent: "mock", execution: "mock" } }),
      },
      (event) => events.push(event as never),
      new AbortController().signal,
    );
    if (events.at(-1)?.type !== "RUN_FINISHED") throw new Error(`turn "${text}" did not finish`);
    return { intent, execution, events };
  }

  const threadId = `bench-follow-up-${crypto.randomUUID()}`;
  const first = await turn(
    threadId,
    "Add a standup tomorrow at 9",
    { objective: "add a standup", requires_tool: true, selected_skill: "calendar", intended_action: "create_event" },
    [
      cal("create", { title: "Standup", start_at: `${tomorrow}T09:00:00Z`, end_at: `${tomorrow}T09:15:00Z`, timezone: "UTC" }),
      { text: "Added." },
    ],
  );
  const created = first.events.find((event) => event.type === "TOOL_CALL_RESULT");
  const eventId = JSON.parse(String(created?.content)).data.event.id as string;

  const move = cal("update", { event_id: eventId, patch: { start_at: `${tomorrow}T17:00:00Z` } });
  const withId = await turn(
    threadId,
    "Move it to 5pm",
    {
      objective: "move the standup to 17:00",
      requires_tool: true,
      selected_skill: "calendar",
      intended_action: "update_event",
      known_entities: [{ type: "event_id", value: eventId }],
      context_summary: `"it" is the Standup created in the previous turn (event_id ${eventId})`,
    },
    [move, { text: "Moved." }],
  );
  const searching = await turn(
    `${threadId}-search`,
    "Move it to 5pm",
    { objective: "move the standup to 17:00", requires_tool: true, selected_skill: "calendar", intended_action: "update_event" },
    [
      cal("read", { mode: "day", date: tomorrow, timezone: "UTC" }),
      cal("update", { event_id: eventId, patch: { start_at: `${tomorrow}T18:00:00Z` } }),
      { text: "Moved." },
    ],
  );

  // The intent prompt as recorded now, and with the tool turn as its summary alone (before).
  const intentCall = withId.intent.doStreamCalls[0]!;
  const now = tokens(intentCall);
  // Turn 1's tool message: what its summary is, and what later turns now read instead.
  const { data: rows } = await db
    .from("messages")
    .select("content, metadata")
    .eq("thread_id", threadId)
    .eq("role", "tool")
    .order("position")
    .limit(1);
  const recorded = rows?.[0];
  if (!recorded) throw new Error("turn 1 left no tool message");
  const context = String((recorded.metadata as Record<string, unknown>).context);
  const before = tokens({
    ...intentCall,
    prompt: JSON.parse(JSON.stringify(intentCall.prompt).replace(JSON.stringify(context).slice(1, -1), recorded.content)),
  });

  const sum = (calls: LanguageModelV4CallOptions[]) => calls.reduce((total, call) => total + tokens(call), 0);
  console.log(`\nFollow-up "move it to 5pm" after creating the event (real runtime and data plane, scripted models, o200k_base tokens)`);
  console.log(`  earlier tool turn as the intent stage reads it now: ${JSON.stringify(context)}`);
  console.log(`  intent prompt: ${now} tokens now, ${before} with the summary alone (+${now - before})`);
  console.log(
    `  worker, naming the event from the intent output: ${withId.execution.doStreamCalls.length} model calls, ${sum(withId.execution.doStreamCalls)} prompt tokens`,
  );
  console.log(
    `  worker, finding the event first (read, update):  ${searching.execution.doStreamCalls.length} model calls, ${sum(searching.execution.doStreamCalls)} prompt tokens`,
  );
} finally {
  await plane.stop();
}
