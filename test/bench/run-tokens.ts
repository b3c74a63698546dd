// Prompt tokens per model call and per run (o200k_base), measured on the real runtime: the
// actual runAgent with a scripted model, against the local data plane, capturing exactly what
// each model call receives (system prompt + tool definitions + messages, including disclosed
// skill text and tool results). Five typical requests, with and without the preloaded card.
// Run: npm run bench:run-tokens
import type { LanguageModelV4CallOptions } from "@ai-sdk/provider";
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import type { IntentOutput } from "../../functions/agent/runtime/intent.ts";
import { runAgent } from "../../functions/agent/runtime/run-agent.ts";
import { createUserDatabase } from "../../functions/lib/user-database.ts";
import { SEEDED_USERS } from "../../supabase/local/auth-tokens.ts";
import { type ScriptedStep, scriptedPair } from "../support/scripted-model.ts";
import { startRuntimeStack } from "./support/runtime-stack.ts";

type Step = ScriptedStep;
interface Scenario {
  name: string;
  request: string;
  intent: IntentOutput;
  /** The worker's moves when the intent stage's action card is already in its instructions. */
  withCard: Step[];
  /** The cards it reads itself otherwise (index first, then the card, as the skills instruct). */
  reads: string[];
}

const today = new Date().toISOString().slice(0, 10);
const cal = (method: string, input: unknown): Step => ({ tool: "project_cli", input: { module: "calendar", method, input } });
const scenarios: Scenario[] = [
  {
    name: "what's on today",
    request: "What's on my calendar today?",
    intent: { objective: "list today's events", requires_tool: true, selected_skill: "calendar", intended_action: "list_day" },
    withCard: [
      cal("read", { mode: "day", date: today, timezone: "UTC" }),
      { text: "You have a project sync at 10:00 and lunch at 12:00." },
    ],
    reads: ["calendar/SKILL.md", "calendar/actions/list_day.md"],
  },
  {
    name: "create an event",
    request: "Add a dentist appointment tomorrow at 4pm",
    intent: { objective: "create an event", requires_tool: true, selected_skill: "calendar", intended_action: "create_event" },
    withCard: [
      cal("create", { title: "Dentist", start_at: "2026-12-02T16:00:00Z", end_at: "2026-12-02T17:00:00Z", timezone: "UTC" }),
      { text: "Added: Dentist tomorrow 16:00-17:00." },
    ],
    reads: ["calendar/SKILL.md", "calendar/actions/create_event.md"],
  },
  {
    name: "event by id",
    request: "Where is event b0000000-0000-4000-8000-000000000001?",
    intent: { objective: "event details", requires_tool: true, selected_skill: "calendar", intended_action: "get_event" },
    withCard: [
      cal("read", { mode: "event", event_id: "b0000000-0000-4000-8000-000000000001" }),
      { text: "Team lunch is at the Noodle bar." },
    ],
    reads: ["calendar/SKILL.md", "calendar/actions/get_event.md"],
  },
  {
    name: "share with a contact",
    request: "Invite Bob to the project sync",
    intent: { objective: "share an event", requires_tool: true, selected_skill: "calendar", intended_action: "share_event" },
    withCard: [
      { tool: "project_cli", input: { module: "contacts", method: "read", input: { name: "Bob" } } },
      cal("share", { event_id: "a0000000-0000-4000-8000-000000000001", invitee: { phone: "+15550000002" }, permissions: { view: true } }),
      { text: "Bob is invited to the project sync." },
    ],
    reads: ["calendar/SKILL.md", "calendar/actions/share_event.md", "contacts/SKILL.md"],
  },
  {
    name: "remember a preference",
    request: "Remember that I prefer morning meetings",
    intent: { objective: "save a preference", requires_tool: true, selected_skill: "memory", intended_action: "update" },
    withCard: [
      {
        tool: "project_cli",
        input: {
          module: "memory",
          method: "update",
          input: { kind: "user_memory", content: { preferences: ["Prefers morning meetings"] } },
        },
      },
      { text: "Noted." },
    ],
    reads: ["memory/SKILL.md"],
  },
];

/** Tokens of what one call sends: every message's text plus the tool definitions. */
function callTokens(options: LanguageModelV4CallOptions): number {
  const text = options.prompt
    .map((message) => (typeof message.content === "string" ? message.content : JSON.stringify(message.content)))
    .join("\n");
  return encode(text).length + (options.tools?.length ? encode(JSON.stringify(options.tools)).length : 0);
}

const { plane, settings, skills } = await startRuntimeStack();
try {
  console.log("Prompt tokens (o200k_base) per model call and per run; intent call included in the run total\n");
  console.log(
    `${"request".padEnd(24)} ${"variant".padEnd(13)} ${"intent".padStart(6)}  ${"execution calls".padEnd(34)} ${"run".padStart(6)}`,
  );
  const totals = { preloaded: 0, reads: 0 };
  for (const scenario of scenarios) {
    for (const preload of [true, false]) {
      const preloadable = skills.has(`${scenario.intent.selected_skill}/actions/${scenario.intent.intended_action}.md`);
      const steps: Step[] =
        preload && preloadable
          ? scenario.withCard
          : [...scenario.reads.map((path) => ({ tool: "view_skill_file", input: { path } })), ...scenario.withCard];
      const { intent, execution } = scriptedPair(scenario.intent, steps);
      const userId = SEEDED_USERS.alice.id;
      const events: string[] = [];
      await runAgent(
        {
          threadId: "bench",
          runId: crypto.randomUUID(),
          userMessageId: "m",
          conversation: [{ role: "user", text: scenario.request }],
          userContent: scenario.request,
          attachments: [],
          timezone: "UTC",
          locale: "en",
        },
        {
          models: { intent, execution, labels: { intent: "mock", execution: "mock" }, provider: "mock", demo: false },
          cli: { db: await createUserDatabase(settings, userId), userId },
          skills,
          agent: { ...settings.agent, preloadActionCard: preload },
        },
        (event) => events.push(event.type),
        new AbortController().signal,
      );
      if (events.at(-1) !== "RUN_FINISHED") throw new Error(`${scenario.name}: run did not finish: ${events.join(",")}`);
      const intentTokens = callTokens(intent.doStreamCalls[0]!);
      const calls = execution.doStreamCalls.map(callTokens);
      const run = intentTokens + calls.reduce((a, b) => a + b, 0);
      totals[preload ? "preloaded" : "reads"] += run;
      console.log(
        `${scenario.name.padEnd(24)} ${(preload ? (preloadable ? "card preloaded" : "no card") : "reads skills").padEnd(13)} ${String(intentTokens).padStart(6)}  ${calls.join(" + ").padEnd(34)} ${String(run).padStart(6)}`,
      );
    }
  }
  console.log(
    `\nFive requests in all: ${totals.preloaded} tokens with the card preloaded, ${totals.reads} when the worker reads skills itself (${(((totals.reads - totals.preloaded) / totals.reads) * 100).toFixed(0)}% saved).`,
  );
} finally {
  await plane.stop();
}
