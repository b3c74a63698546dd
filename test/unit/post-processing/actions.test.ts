// Every project_cli method end to end through post-processing, with results produced by the
// real router and handlers (a scripted database stands in for PostgREST). If a handler's
// result shape changes, these cards and summaries change with it and the tests say so.
import { describe, expect, test } from "vitest";
import { postProcessToolCall, ToolAgentOutput, UiHints, UiSchema } from "../../../functions/agent/post-processing/index.ts";
import type { CliContext } from "../../../functions/project_cli/context.ts";
import { runProjectCli } from "../../../functions/project_cli/router.ts";
import { SYNC_EVENT_HINT } from "./fixtures.ts";

const ALICE = "11111111-1111-4111-8111-111111111111";
const BOB = "22222222-2222-4222-8222-222222222222";
const EVENT_ID = "a0000000-0000-4000-8000-000000000001";
const OTHER_EVENT_ID = "a0000000-0000-4000-8000-000000000002";

interface Response {
  data: unknown;
  error?: { code: string; message: string };
  status?: number;
}

/**
 * A stand-in for the supabase-js client: every from()/rpc() takes the next scripted response;
 * the builder methods chained after it (select, eq, limit, ...) are accepted and ignored, and
 * awaiting the chain yields the response. Running out of script fails the test.
 */
function scriptedDb(script: Response[]) {
  const queue = [...script];
  const chain = (response: Response): object => {
    const proxy: object = new Proxy(
      {},
      {
        get: (_target, property) =>
          property === "then"
            ? (resolve: (value: unknown) => void) =>
                resolve({ data: response.data, error: response.error ?? null, status: response.status ?? 200 })
            : () => proxy,
      },
    );
    return proxy;
  };
  const next = () => {
    const response = queue.shift();
    if (!response) throw new Error("the handler made an unscripted query");
    return chain(response);
  };
  return { from: next, rpc: next };
}

async function call(args: unknown, script: Response[] = []) {
  const ctx = { db: scriptedDb(script), userId: ALICE } as unknown as CliContext;
  const output = await runProjectCli(args, ctx);
  const processed = postProcessToolCall({ toolName: "project_cli", toolCallId: "call-1", args, output });
  // Whatever the case, what is stored and sent must validate against the published schemas.
  expect(ToolAgentOutput.safeParse(processed.toolAgentOutput).success).toBe(true);
  if (processed.toolAgentOutput.ui_hints) expect(UiHints.safeParse(processed.toolAgentOutput.ui_hints).success).toBe(true);
  if (processed.uiSchema) expect(UiSchema.safeParse(processed.uiSchema).success).toBe(true);
  return { output, processed, out: processed.toolAgentOutput, hints: processed.toolAgentOutput.ui_hints, schema: processed.uiSchema };
}

/** A schedule_items row as PostgREST returns it (UTC instants, embedded subscriptions). */
function eventRow(overrides: Record<string, unknown> = {}) {
  return {
    id: EVENT_ID,
    owner_id: ALICE,
    title: "Project sync",
    description: "Weekly status, bring the roadmap",
    start_at: "2026-04-23T08:00:00+00:00",
    end_at: "2026-04-23T09:00:00+00:00",
    timezone: "Asia/Shanghai",
    status: "active",
    metadata: { location: "Room 4", notes: "private notes that a card never shows" },
    recurrence_rule: null,
    recurrence_exceptions: [],
    source_type: "agent",
    created_at: "2026-04-01T00:00:00+00:00",
    updated_at: "2026-04-01T00:00:00+00:00",
    schedule_subscriptions: [],
    ...overrides,
  };
}

const SYNC_HINT = SYNC_EVENT_HINT;

describe("calendar.read", () => {
  test("day: an event_list card with times in the event's zone, counted title and summary", async () => {
    const lunch = eventRow({ id: OTHER_EVENT_ID, title: "Lunch", start_at: "2026-04-23T04:00:00+00:00", end_at: null, metadata: {} });
    const args = { module: "calendar", method: "read", input: { mode: "day", date: "2026-04-23", timezone: "Asia/Shanghai" } };
    const { out, hints, schema, processed } = await call(args, [{ data: [lunch, eventRow()] }]);
    expect(out.status).toBe("success");
    expect(out.result).toMatchObject({ module: "calendar", method: "read", data: { mode: "day", count: 2 } });
    expect(hints).toEqual({
      kind: "event_list",
      period: { mode: "day", date: "2026-04-23", timezone: "Asia/Shanghai" },
      count: 2,
      truncated: false,
      events: [
        {
          id: OTHER_EVENT_ID,
          title: "Lunch",
          start_at: "2026-04-23T12:00:00+08:00",
          end_at: null,
          timezone: "Asia/Shanghai",
          status: "active",
          access: "owner",
        },
        SYNC_HINT,
      ],
    });
    expect(schema).toMatchObject({ schema_version: 2, card: "event_list", title: "2 events on 2026-04-23", subtitle: "Asia/Shanghai" });
    expect(schema!.blocks.map((block) => block.type)).toEqual(["event", "event"]);
    expect(processed.summary).toBe("Found 2 events on 2026-04-23");
  });

  test("day, cut short by the limit: partial status, a warning block, and the summary says so", async () => {
    const args = { module: "calendar", method: "read", input: { mode: "day", date: "2026-04-23", timezone: "Asia/Shanghai", limit: 1 } };
    const { out, hints, schema, processed } = await call(args, [{ data: [eventRow(), eventRow({ id: OTHER_EVENT_ID })] }]);
    expect(out.status).toBe("partial");
    expect(out.error).toBeNull();
    expect(hints).toMatchObject({ kind: "event_list", count: 1, truncated: true });
    expect(schema!.title).toBe("1 event on 2026-04-23");
    expect(schema!.blocks.at(-1)).toMatchObject({ type: "notice", tone: "warning" });
    expect(processed.summary).toBe("Found 1 event on 2026-04-23 (more not shown)");
  });

  test("range with nothing in it: an empty list with an info notice", async () => {
    const args = {
      module: "calendar",
      method: "read",
      input: { mode: "range", start_at: "2026-04-20T00:00:00+08:00", end_at: "2026-04-27T00:00:00+08:00" },
    };
    const { out, hints, schema, processed } = await call(args, [{ data: [] }]);
    expect(out.status).toBe("success");
    expect(hints).toEqual({
      kind: "event_list",
      period: { mode: "range", start_at: "2026-04-20T00:00:00+08:00", end_at: "2026-04-27T00:00:00+08:00" },
      count: 0,
      truncated: false,
      events: [],
    });
    expect(schema).toMatchObject({ title: "No events from 2026-04-20 to 2026-04-27", blocks: [{ type: "notice", tone: "info" }] });
    expect(processed.summary).toBe("Found 0 events from 2026-04-20T00:00:00+08:00 to 2026-04-27T00:00:00+08:00");
  });

  test("a repeating event: one event block per occurrence, marked as repeating, with the series id", async () => {
    const weekly = eventRow({ start_at: "2026-04-09T08:00:00+00:00", end_at: "2026-04-09T09:00:00+00:00", recurrence_rule: "FREQ=WEEKLY" });
    const args = {
      module: "calendar",
      method: "read",
      input: { mode: "range", start_at: "2026-04-20T00:00:00+08:00", end_at: "2026-05-04T00:00:00+08:00" },
    };
    const { hints, schema, processed } = await call(args, [{ data: [weekly] }]);
    expect(hints).toMatchObject({
      kind: "event_list",
      count: 2,
      events: [
        { ...SYNC_HINT, repeats: true },
        { ...SYNC_HINT, start_at: "2026-04-30T16:00:00+08:00", end_at: "2026-04-30T17:00:00+08:00", repeats: true },
      ],
    });
    expect(schema!.blocks).toMatchObject([
      { type: "event", id: EVENT_ID, repeats: true },
      { type: "event", id: EVENT_ID, repeats: true },
    ]);
    expect(processed.summary).toBe("Found 2 events from 2026-04-20T00:00:00+08:00 to 2026-05-04T00:00:00+08:00");
  });

  test("event: an event_detail card for a shared event shows the caller's access", async () => {
    const shared = eventRow({ owner_id: BOB, schedule_subscriptions: [{ subscriber_id: ALICE, permission: "edit", status: "accepted" }] });
    const { hints, schema, processed } = await call({ module: "calendar", method: "read", input: { mode: "event", event_id: EVENT_ID } }, [
      { data: [shared] },
    ]);
    expect(hints).toEqual({ kind: "event_detail", event: { ...SYNC_HINT, access: "edit" } });
    expect(schema).toMatchObject({ card: "event_detail", title: "Event details", subtitle: "Project sync" });
    expect(processed.summary).toBe("Read event: Project sync");
  });

  test("event not visible: NOT_FOUND hints keep the suggestion; the card says it in the person's words", async () => {
    const { out, hints, schema, processed } = await call(
      { module: "calendar", method: "read", input: { mode: "event", event_id: EVENT_ID } },
      [{ data: [] }],
    );
    expect(out.status).toBe("failure");
    expect(out.result).toEqual({ module: "calendar", method: "read" });
    expect(out.error).toMatchObject({ code: "NOT_FOUND", retryable: false });
    expect(hints).toMatchObject({
      kind: "action_failed",
      action: "calendar.read",
      code: "NOT_FOUND",
      retryable: false,
      suggestion: expect.stringContaining('"mode":"day"'),
    });
    expect(schema).toMatchObject({
      card: "action_failed",
      title: "Could not read the calendar",
      blocks: [{ type: "notice", tone: "error", text: expect.stringContaining("could not be found") }],
    });
    expect(processed.summary).toBe(`calendar.read failed: no event ${EVENT_ID} is visible to you`);
  });
});

describe("calendar writes", () => {
  test("create: event_created, metadata reduced to the location", async () => {
    const args = {
      module: "calendar",
      method: "create",
      input: { title: "Project sync", start_at: "2026-04-23T16:00:00+08:00", timezone: "Asia/Shanghai" },
    };
    const { out, hints, schema, processed } = await call(args, [{ data: eventRow() }]);
    expect(out.status).toBe("success");
    expect(hints).toEqual({ kind: "event_created", event: SYNC_HINT });
    expect(JSON.stringify(hints)).not.toContain("private notes");
    expect(schema).toMatchObject({
      card: "event_created",
      title: "Event created",
      blocks: [{ type: "event", location: "Room 4", start_at: "2026-04-23T16:00:00+08:00" }],
    });
    expect(processed.summary).toBe("Created event: Project sync (2026-04-23T16:00:00+08:00)");
  });

  test("create with an invalid input: INVALID_ACTION_INPUT as an error card, summary from the error", async () => {
    const args = {
      module: "calendar",
      method: "create",
      input: { title: "Project sync", start_time: "2026-04-23T16:00:00+08:00", timezone: "Asia/Shanghai" },
    };
    const { out, hints, schema, processed } = await call(args);
    expect(out.error?.code).toBe("INVALID_ACTION_INPUT");
    expect(hints).toMatchObject({ kind: "action_failed", action: "calendar.create", code: "INVALID_ACTION_INPUT" });
    expect(schema!.title).toBe("Could not create the event");
    expect(processed.summary).toBe("calendar.create failed: input does not match calendar.create");
  });

  test("update: event_updated lists the changed fields, in words on the card", async () => {
    const moved = eventRow({ start_at: "2026-04-23T09:00:00+00:00", end_at: "2026-04-23T10:00:00+00:00" });
    const args = {
      module: "calendar",
      method: "update",
      input: { event_id: EVENT_ID, patch: { start_at: "2026-04-23T17:00:00+08:00", end_at: "2026-04-23T18:00:00+08:00" } },
    };
    const { hints, schema, processed } = await call(args, [{ data: [moved] }]);
    expect(hints).toEqual({
      kind: "event_updated",
      event: { ...SYNC_HINT, start_at: "2026-04-23T17:00:00+08:00", end_at: "2026-04-23T18:00:00+08:00" },
      changed_fields: ["start_at", "end_at"],
    });
    expect(schema!.blocks[1]).toEqual({ type: "fields", items: [{ label: "Changed", value: "start time, end time" }] });
    expect(processed.summary).toBe("Updated event: Project sync (start_at, end_at)");
  });

  test("delete: event_deleted", async () => {
    const { hints, schema, processed } = await call({ module: "calendar", method: "delete", input: { event_id: EVENT_ID } }, [
      { data: [{ id: EVENT_ID, title: "Project sync" }] },
    ]);
    expect(hints).toEqual({ kind: "event_deleted", event_id: EVENT_ID, title: "Project sync" });
    expect(schema).toMatchObject({ title: "Event deleted", subtitle: "Project sync" });
    expect(processed.summary).toBe("Deleted event: Project sync");
  });

  test("delete by a viewer: FORBIDDEN, with the handler's suggestion on the card", async () => {
    const shared = eventRow({ owner_id: BOB, schedule_subscriptions: [{ subscriber_id: ALICE, permission: "view", status: "accepted" }] });
    const { out, hints, processed } = await call({ module: "calendar", method: "delete", input: { event_id: EVENT_ID } }, [
      { data: [] },
      { data: [shared] },
    ]);
    expect(out.error).toMatchObject({ code: "FORBIDDEN", details: { access: "view" } });
    expect(hints).toMatchObject({
      kind: "action_failed",
      action: "calendar.delete",
      code: "FORBIDDEN",
      suggestion: expect.stringContaining("reject_invite"),
    });
    expect(processed.summary).toBe('calendar.delete failed: your access to this event is "view"; only the owner deletes an event');
  });
});

describe("sharing and invitations", () => {
  const shareArgs = {
    module: "calendar",
    method: "share",
    input: { event_id: EVENT_ID, invitee: { phone: "+8613812345678" }, permissions: { view: true, edit: true } },
  };

  test("share: the invitee is named as the user gave them (phone), not only by account id", async () => {
    const { hints, schema, processed } = await call(shareArgs, [
      { data: [eventRow()] },
      { data: BOB },
      {
        data: {
          id: "c0000000-0000-4000-8000-000000000001",
          permission: "edit",
          status: "pending",
          created_at: "2026-04-20T00:00:00+00:00",
        },
      },
    ]);
    expect(hints).toEqual({
      kind: "event_shared",
      event: { id: EVENT_ID, title: "Project sync", start_at: "2026-04-23T16:00:00+08:00", end_at: "2026-04-23T17:00:00+08:00" },
      invitee: { matched_by: "phone", value: "+8613812345678", user_id: BOB },
      permission: "edit",
      invitation_status: "pending",
    });
    expect(schema).toMatchObject({
      title: "Event shared",
      blocks: [
        { type: "event", id: EVENT_ID },
        {
          type: "fields",
          items: [
            { label: "Invitee (Phone)", value: "+8613812345678" },
            { label: "Permission", value: "Can edit" },
            { label: "Invitation", value: "Pending" },
          ],
        },
      ],
    });
    expect(processed.summary).toBe("Shared Project sync with +8613812345678 (edit)");
  });

  test("share with someone already invited: CONFLICT", async () => {
    const { out, hints, processed } = await call(shareArgs, [
      { data: [eventRow()] },
      { data: BOB },
      { data: null, error: { code: "23505", message: "duplicate key" }, status: 409 },
    ]);
    expect(out.error?.code).toBe("CONFLICT");
    expect(hints).toMatchObject({ kind: "action_failed", action: "calendar.share", code: "CONFLICT" });
    expect(hints).not.toHaveProperty("suggestion");
    expect(processed.summary).toBe("calendar.share failed: this person has already been invited to this event");
  });

  test("accept: invitation_answered with the now-visible event", async () => {
    const shared = eventRow({ owner_id: BOB, schedule_subscriptions: [{ subscriber_id: ALICE, permission: "view", status: "accepted" }] });
    const { hints, schema, processed } = await call({ module: "calendar", method: "accept_invite", input: { event_id: EVENT_ID } }, [
      { data: [{ permission: "view", status: "accepted", responded_at: "2026-04-21T00:00:00+00:00" }] },
      { data: [shared] },
    ]);
    expect(hints).toEqual({
      kind: "invitation_answered",
      answer: "accepted",
      event_id: EVENT_ID,
      permission: "view",
      event: { ...SYNC_HINT, access: "view" },
    });
    expect(schema).toMatchObject({
      title: "Invitation accepted",
      subtitle: "Project sync",
      blocks: [{ type: "event" }, { type: "fields", items: [{ label: "Permission", value: "Can view" }] }],
    });
    expect(processed.summary).toBe("Accepted invitation to Project sync");
  });

  test("invitations: invitation_list with who invited, and the summary names the events", async () => {
    const row = (event_id: string, title: string, inviter: Record<string, string | null>) => ({
      event_id,
      title,
      start_at: "2026-04-23T08:00:00+00:00",
      end_at: null,
      timezone: "Asia/Shanghai",
      event_status: "active",
      recurrence_rule: null,
      permission: "edit",
      invited_at: "2026-04-20T00:00:00+00:00",
      inviter_id: BOB,
      inviter_name: null,
      inviter_email: null,
      inviter_phone: null,
      ...inviter,
    });
    const { hints, schema, processed } = await call({ module: "calendar", method: "invitations", input: {} }, [
      {
        data: [
          row(EVENT_ID, "Project sync", { inviter_name: "Bob" }),
          row(OTHER_EVENT_ID, "Offsite", { inviter_email: "bob@example.com" }),
        ],
      },
    ]);
    expect(hints).toEqual({
      kind: "invitation_list",
      count: 2,
      truncated: false,
      invitations: [
        {
          event: {
            id: EVENT_ID,
            title: "Project sync",
            start_at: "2026-04-23T16:00:00+08:00",
            end_at: null,
            timezone: "Asia/Shanghai",
            status: "active",
          },
          permission: "edit",
          inviter: { name: "Bob" },
        },
        {
          event: {
            id: OTHER_EVENT_ID,
            title: "Offsite",
            start_at: "2026-04-23T16:00:00+08:00",
            end_at: null,
            timezone: "Asia/Shanghai",
            status: "active",
          },
          permission: "edit",
          inviter: { email: "bob@example.com" },
        },
      ],
    });
    expect(schema).toMatchObject({
      title: "2 invitations waiting",
      blocks: [
        { type: "event", id: EVENT_ID },
        {
          type: "fields",
          items: [
            { label: "Invited by", value: "Bob" },
            { label: "Permission", value: "Can edit" },
          ],
        },
        { type: "event", id: OTHER_EVENT_ID },
        {
          type: "fields",
          items: [
            { label: "Invited by", value: "bob@example.com" },
            { label: "Permission", value: "Can edit" },
          ],
        },
      ],
    });
    expect(processed.summary).toBe("Found 2 pending invitations: Project sync, Offsite");
  });

  test("invitations, none waiting: an empty card that says so", async () => {
    const { schema, processed } = await call({ module: "calendar", method: "invitations", input: {} }, [{ data: [] }]);
    expect(schema).toMatchObject({ title: "No invitations waiting", blocks: [{ type: "notice", tone: "info" }] });
    expect(processed.summary).toBe("Found 0 pending invitations");
  });

  test("delete one occurrence: the card and the summary say the series stays", async () => {
    const weekly = eventRow({ recurrence_rule: "FREQ=WEEKLY" });
    const args = { module: "calendar", method: "delete", input: { event_id: EVENT_ID, occurrence_start: "2026-04-30T16:00:00+08:00" } };
    const { hints, schema, processed } = await call(args, [{ data: [weekly] }, { data: [{ id: EVENT_ID, title: "Project sync" }] }]);
    expect(hints).toEqual({
      kind: "event_deleted",
      event_id: EVENT_ID,
      title: "Project sync",
      occurrence_start: "2026-04-30T16:00:00+08:00",
    });
    expect(schema).toMatchObject({
      title: "Occurrence removed",
      blocks: [
        { type: "notice", tone: "success", text: '"Project sync" on 2026-04-30 was removed; the other occurrences stay.' },
        { type: "fields" },
      ],
    });
    expect(processed.summary).toBe("Removed one occurrence of Project sync (2026-04-30T16:00:00+08:00)");
  });

  test("reject: invitation_answered without an event", async () => {
    const { hints, schema, processed } = await call({ module: "calendar", method: "reject_invite", input: { event_id: EVENT_ID } }, [
      { data: [{ permission: "edit", status: "rejected", responded_at: "2026-04-21T00:00:00+00:00" }] },
    ]);
    expect(hints).toEqual({ kind: "invitation_answered", answer: "rejected", event_id: EVENT_ID, permission: "edit" });
    expect(schema).toMatchObject({
      title: "Invitation declined",
      blocks: [
        {
          type: "fields",
          items: [
            { label: "Event ID", value: EVENT_ID },
            { label: "Permission", value: "Can edit" },
          ],
        },
        { type: "notice" },
      ],
    });
    expect(schema).not.toHaveProperty("subtitle");
    expect(processed.summary).toBe(`Declined invitation for event ${EVENT_ID}`);
  });

  test("reject with no invitation: NOT_FOUND", async () => {
    const { hints, processed } = await call({ module: "calendar", method: "reject_invite", input: { event_id: EVENT_ID } }, [{ data: [] }]);
    expect(hints).toMatchObject({ kind: "action_failed", action: "calendar.reject_invite", code: "NOT_FOUND" });
    expect(processed.summary).toBe(`calendar.reject_invite failed: you have no invitation for event ${EVENT_ID}`);
  });
});

describe("contacts.read", () => {
  const bob = {
    id: "b0000000-0000-4000-8000-000000000001",
    display_name: "Bob Chen",
    phone: "+8613812345678",
    email: null,
    linked_user_id: BOB,
    notes: "met at the offsite",
  };

  test("a name search: contact_list with the query, nulls and notes dropped", async () => {
    const { out, hints, schema, processed } = await call({ module: "contacts", method: "read", input: { name: "bob" } }, [{ data: [bob] }]);
    expect(out.status).toBe("success");
    expect(hints).toEqual({
      kind: "contact_list",
      query: { field: "name", value: "bob" },
      count: 1,
      truncated: false,
      contacts: [{ id: bob.id, name: "Bob Chen", phone: "+8613812345678" }],
    });
    expect(schema).toEqual({
      schema_version: 2,
      card: "contact_list",
      title: '1 contact matching "bob"',
      blocks: [{ type: "contact", id: bob.id, name: "Bob Chen", phone: "+8613812345678" }],
    });
    expect(processed.summary).toBe('Found 1 contact matching "bob"');
  });

  test("listing all, cut short: partial, no query", async () => {
    const alice = { ...bob, id: "b0000000-0000-4000-8000-000000000002", display_name: "Alice", email: "alice@example.com" };
    const { out, hints, processed } = await call({ module: "contacts", method: "read", input: { limit: 1 } }, [{ data: [alice, bob] }]);
    expect(out.status).toBe("partial");
    expect(hints).not.toHaveProperty("query");
    expect(hints).toMatchObject({ kind: "contact_list", count: 1, truncated: true });
    expect(processed.summary).toBe("Found 1 contact (more not shown)");
  });

  test("the database is down: UPSTREAM_UNAVAILABLE is retryable, and the card says to try again", async () => {
    const { out, hints, schema } = await call({ module: "contacts", method: "read", input: {} }, [
      { data: null, error: { code: "PGRST001", message: "no connection" }, status: 503 },
    ]);
    expect(out.error).toMatchObject({ code: "UPSTREAM_UNAVAILABLE", retryable: true });
    expect(hints).toMatchObject({ kind: "action_failed", action: "contacts.read", retryable: true });
    expect(schema!.blocks).toEqual([{ type: "notice", tone: "error", text: expect.stringContaining("try again") }]);
  });
});

describe("tools", () => {
  async function callTools(args: unknown, answers: { status: number; body: unknown }[]) {
    const tools = { request: async () => answers.shift() ?? { status: 500, body: null } };
    const output = await runProjectCli(args, { db: scriptedDb([]) as unknown as CliContext["db"], userId: ALICE, tools });
    const processed = postProcessToolCall({ toolName: "project_cli", toolCallId: "call-1", args, output });
    if (processed.uiSchema) expect(UiSchema.safeParse(processed.uiSchema).success).toBe(true);
    return { hints: processed.toolAgentOutput.ui_hints, schema: processed.uiSchema, summary: processed.summary };
  }
  const entry = { tool_id: "unit_convert", name: "Unit converter", category: "convert", description: "secret-ish long text", params: [] };

  test("search: tool_list with id, name and category only; none found says so", async () => {
    const found = await callTools({ module: "tools", method: "search", input: { query: "miles" } }, [
      { status: 200, body: { tools: [entry] } },
    ]);
    expect(found.hints).toEqual({
      kind: "tool_list",
      query: "miles",
      count: 1,
      tools: [{ tool_id: "unit_convert", name: "Unit converter", category: "convert" }],
    });
    expect(JSON.stringify(found.schema)).not.toContain("secret-ish");
    expect(found.summary).toBe('Found 1 tool matching "miles"');
    const none = await callTools({ module: "tools", method: "search", input: { query: "teleport" } }, [
      { status: 200, body: { tools: [] } },
    ]);
    expect(none.schema).toMatchObject({ title: 'No tools matching "teleport"', blocks: [{ type: "notice", tone: "info" }] });
  });

  test("call: the answer's plain values on the card, nested ones counted, never in the summary", async () => {
    const result = { value: 6.2, unit: "mi", exact: false, detail: { steps: [1, 2] }, note: "x".repeat(500) };
    const { hints, schema, summary } = await callTools(
      { module: "tools", method: "call", input: { tool_id: "unit_convert", params: { value: 10 } } },
      [{ status: 200, body: { status: "success", result, error: null } }],
    );
    expect(hints).toEqual({
      kind: "tool_result",
      tool_id: "unit_convert",
      values: [
        { name: "value", value: "6.2" },
        { name: "unit", value: "mi" },
        { name: "exact", value: "false" },
        { name: "note", value: "x".repeat(200) },
      ],
      hidden: 1,
    });
    expect(schema!.blocks.at(-1)).toEqual({ type: "notice", tone: "info", text: "Only part of the answer is shown." });
    expect(summary).toBe("Ran tool unit_convert");
    const scalar = await callTools({ module: "tools", method: "call", input: { tool_id: "unit_convert" } }, [
      { status: 200, body: { status: "success", result: 42, error: null } },
    ]);
    expect(scalar.hints).toMatchObject({ values: [{ name: "result", value: "42" }], hidden: 0 });
  });

  test("a failed call: action_failed with the mapped code", async () => {
    const { hints, schema } = await callTools({ module: "tools", method: "call", input: { tool_id: "gone" } }, [
      { status: 404, body: { status: "error", result: null, error: { code: "NOT_FOUND", message: "no tool" } } },
    ]);
    expect(hints).toMatchObject({ kind: "action_failed", action: "tools.call", code: "NOT_FOUND" });
    expect(schema!.title).toBe("Could not run the tool");
  });
});

describe("memory", () => {
  test("read: no card, summary names the stored kinds", async () => {
    const { out, schema, processed } = await call({ module: "memory", method: "read", input: {} }, [
      { data: [{ kind: "work_profile", content: { role: "PM" }, version: 2, updated_at: "2026-04-01T00:00:00+00:00" }] },
    ]);
    expect(out.status).toBe("success");
    expect(out.ui_hints).toBeNull();
    expect(schema).toBeNull();
    expect(processed.summary).toBe("Read memory (work_profile)");
  });

  test("update: memory_updated with field names, not the content", async () => {
    const args = {
      module: "memory",
      method: "update",
      input: { kind: "user_memory", content: { preferred_name: "Ali", timezone: "Asia/Shanghai" } },
    };
    const { hints, schema, processed } = await call(args, [
      { data: [{ kind: "user_memory", content: { facts: ["likes tea"] }, version: 3, updated_at: "2026-04-01T00:00:00+00:00" }] },
      {
        data: {
          kind: "user_memory",
          content: { facts: ["likes tea"], preferred_name: "Ali", timezone: "Asia/Shanghai" },
          version: 4,
          updated_at: "2026-04-02T00:00:00+00:00",
        },
      },
    ]);
    expect(hints).toEqual({
      kind: "memory_updated",
      memory_kind: "user_memory",
      mode: "merge",
      updated_fields: ["preferred_name", "timezone"],
      version: 4,
    });
    expect(JSON.stringify(schema)).not.toContain("likes tea");
    expect(schema).toMatchObject({
      title: "Memory updated",
      subtitle: "Version 4",
      blocks: [{ type: "fields", items: [{ label: "Updated", value: "preferred name, timezone" }, { label: "Mode" }] }],
    });
    expect(processed.summary).toBe("Updated user_memory: preferred_name, timezone");
  });

  test("update refused by validation: action_failed", async () => {
    const { hints, processed } = await call({ module: "memory", method: "update", input: { kind: "diary", content: {} } });
    expect(hints).toMatchObject({ kind: "action_failed", action: "memory.update", code: "INVALID_ACTION_INPUT" });
    expect(processed.summary).toBe("memory.update failed: input does not match memory.update");
  });

  test("a failed memory.read gets no card either", async () => {
    const { out, processed } = await call({ module: "memory", method: "read", input: { kind: "diary" } });
    expect(out.status).toBe("failure");
    expect(out.ui_hints).toBeNull();
    expect(processed.uiSchema).toBeNull();
  });
});

describe("router failures outside the carded actions", () => {
  test("UNKNOWN_METHOD: no card, summary from the error", async () => {
    const { out, processed } = await call({ module: "calendar", method: "get_event", input: {} });
    expect(out.error?.code).toBe("UNKNOWN_METHOD");
    expect(out.ui_hints).toBeNull();
    expect(processed.summary).toBe('calendar.get_event failed: module "calendar" has no method "get_event"');
  });

  test("INVALID_ENVELOPE without usable names: result names are null, summary uses the tool name", async () => {
    const { out, processed } = await call({ command: "calendar", subcommand: "read", args: {} });
    expect(out.result).toEqual({ module: null, method: null });
    expect(out.ui_hints).toBeNull();
    expect(processed.summary).toBe("project_cli failed: the call must be {module, method, input} with input an object");
  });
});
