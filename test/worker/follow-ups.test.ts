// Follow-ups keep the thread, through the real runtime and data plane with scripted models that
// check what each stage received. After a turn that created or listed events, "move it to 5pm"
// and "share that with Bob" name the event without searching again: the intent stage reads
// the earlier turns, whose tool turns now carry the ids they touched; the worker still sees no
// conversation (decision D16), only the intent output, which passes the id and a context summary.
import { beforeAll, describe, expect, test } from "vitest";
import { SEEDED_USERS } from "../../supabase/local/auth-tokens.ts";
import { EventType, freshUser, ofType, runAgentRequest, runInput, type ScriptedStep, tokenFor } from "./support/agent.ts";

const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
const cli = (method: string, input: unknown): ScriptedStep => ({ tool: "project_cli", input: { module: "calendar", method, input } });
let alice: string;

beforeAll(async () => {
  // A user of its own: the day read below lists only what these tests made.
  alice = await tokenFor((await freshUser()).id);
});

const textOf = (value: unknown) => JSON.stringify(value);
const resultsOf = (events: Awaited<ReturnType<typeof runAgentRequest>>["events"]) =>
  ofType(events, EventType.TOOL_CALL_RESULT).map((event) => JSON.parse(event.content as string));

/** The worker's first model call: its system instructions and the messages it was given. */
function workerInput(run: Awaited<ReturnType<typeof runAgentRequest>>) {
  const prompt = run.execution.doStreamCalls[0]!.prompt;
  return {
    system: textOf(prompt.filter((message) => message.role === "system")),
    userMessages: prompt.filter((message) => message.role === "user"),
  };
}

describe("follow-ups", () => {
  test('"move it to 5pm" after creating it: one update, no search, the duration kept', async () => {
    const threadId = `thread-${crypto.randomUUID()}`;
    const first = await runAgentRequest({
      token: alice,
      input: runInput("Add a standup tomorrow at 9", { threadId }),
      script: {
        intent: { objective: "add a standup", requires_tool: true },
        steps: [
          cli("create", { title: "Standup", start_at: `${tomorrow}T09:00:00Z`, end_at: `${tomorrow}T09:15:00Z`, timezone: "UTC" }),
          { text: "Added." },
        ],
      },
    });
    const eventId = resultsOf(first.events)[0].data.event.id as string;

    const contextSummary = `"it" is the Standup created in the previous turn (event_id ${eventId}, ${tomorrow} 09:00-09:15 UTC)`;
    const second = await runAgentRequest({
      token: alice,
      input: runInput("Move it to 5pm", { threadId }),
      script: {
        intent: {
          objective: "move the standup to 17:00",
          requires_tool: true,
          selected_skill: "calendar",
          intended_action: "update_event",
          known_entities: [{ type: "event_id", value: eventId }],
          context_summary: contextSummary,
        },
        steps: [cli("update", { event_id: eventId, patch: { start_at: `${tomorrow}T17:00:00Z` } }), { text: "Moved to 17:00." }],
      },
    });

    // The intent stage got the earlier turns, and the tool turn names the event by id.
    const intentPrompt = textOf(second.intent.doStreamCalls[0]!.prompt);
    expect(intentPrompt).toContain("Add a standup tomorrow at 9");
    expect(intentPrompt).toContain(`event_id ${eventId} \\"Standup\\" ${tomorrow}T09:00:00Z`);
    // The worker got no conversation, only this request, and the id through the intent output.
    const worker = workerInput(second);
    expect(worker.userMessages).toHaveLength(1);
    expect(textOf(worker.userMessages)).toContain("Move it to 5pm");
    expect(textOf(worker.userMessages)).not.toContain("Add a standup");
    expect(worker.system).toContain(eventId);
    expect(worker.system).toContain("context_summary");
    // One tool call, the update, which kept the 15 minutes.
    const results = resultsOf(second.events);
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({
      ok: true,
      method: "update",
      data: { event: { start_at: `${tomorrow}T17:00:00Z`, end_at: `${tomorrow}T17:15:00Z` } },
    });
  });

  test('"share that with Bob" after a day read: the listed event\'s id reaches the router', async () => {
    const threadId = `thread-${crypto.randomUUID()}`;
    const first = await runAgentRequest({
      token: alice,
      input: runInput("Add the design review tomorrow at 14:00", { threadId }),
      script: {
        intent: { objective: "add an event", requires_tool: true },
        steps: [cli("create", { title: "Design review", start_at: `${tomorrow}T14:00:00Z`, timezone: "UTC" }), { text: "Added." }],
      },
    });
    const eventId = resultsOf(first.events)[0].data.event.id as string;
    const read = await runAgentRequest({
      token: alice,
      input: runInput("What's on tomorrow?", { threadId }),
      script: {
        intent: { objective: "list tomorrow", requires_tool: true },
        steps: [cli("read", { mode: "day", date: tomorrow, timezone: "UTC" }), { text: "You have a design review." }],
      },
    });
    expect(resultsOf(read.events)[0].data.items.map((item: { id: string }) => item.id)).toContain(eventId);

    const share = await runAgentRequest({
      token: alice,
      input: runInput("Share that with Bob", { threadId }),
      script: {
        intent: {
          objective: "share the design review with Bob",
          requires_tool: true,
          known_entities: [{ type: "event_id", value: eventId }],
        },
        steps: [
          cli("share", { event_id: eventId, invitee: { user_id: SEEDED_USERS.bob.id }, permissions: { view: true } }),
          { text: "Shared." },
        ],
      },
    });
    // The read's tool turn, not only "Found N events", is what the router saw.
    expect(textOf(share.intent.doStreamCalls[0]!.prompt)).toMatch(new RegExp(`Found \\d+ events? on ${tomorrow}: .*event_id ${eventId}`));
    expect(resultsOf(share.events)).toMatchObject([{ ok: true, method: "share" }]);
  });
});
