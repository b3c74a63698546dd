// The ui_hints -> ui_schema codec: every kind compiles to a card that validates, the same
// hints always give the same card (history replay rebuilds cards from stored hints), and
// the published schemas refuse what the app could not render.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import {
  Block,
  compileCard,
  HINTED_ACTIONS,
  UI_SCHEMA_VERSION,
  UiHints,
  UiSchema,
} from "../../../functions/agent/post-processing/index.ts";
import { SYNC_EVENT_HINT } from "./fixtures.ts";

type Sample<K extends UiHints["kind"]> = Extract<UiHints, { kind: K }>;

const EVENT = SYNC_EVENT_HINT;

// A mapped type: adding a kind to UiHints without a sample here is a compile error.
const SAMPLES: { [K in UiHints["kind"]]: Sample<K> } = {
  event_list: {
    kind: "event_list",
    period: { mode: "day", date: "2026-04-23", timezone: "Asia/Shanghai" },
    count: 1,
    truncated: false,
    events: [EVENT],
  },
  event_detail: { kind: "event_detail", event: EVENT },
  event_created: { kind: "event_created", event: EVENT },
  event_updated: { kind: "event_updated", event: EVENT, changed_fields: ["title", "recurrence_rule", "custom_field"] },
  event_deleted: { kind: "event_deleted", event_id: EVENT.id, title: "Project sync" },
  event_shared: {
    kind: "event_shared",
    event: { id: EVENT.id, title: "Project sync", start_at: EVENT.start_at, end_at: null },
    invitee: { matched_by: "email", value: "bob@example.com", user_id: "22222222-2222-4222-8222-222222222222" },
    permission: "invite",
    invitation_status: "pending",
  },
  invitation_list: {
    kind: "invitation_list",
    count: 2,
    truncated: false,
    invitations: [
      {
        event: { id: EVENT.id, title: "Project sync", start_at: EVENT.start_at, end_at: null, timezone: "Asia/Shanghai", status: "active" },
        permission: "edit",
        inviter: { name: "Alice" },
      },
      {
        event: { id: "e2", title: "Offsite", start_at: EVENT.start_at, end_at: null, timezone: "Asia/Shanghai", status: "active" },
        permission: "view",
        inviter: {},
      },
    ],
  },
  invitation_answered: {
    kind: "invitation_answered",
    answer: "accepted",
    event_id: EVENT.id,
    permission: "view",
    event: { ...EVENT, access: "view" },
  },
  contact_list: {
    kind: "contact_list",
    count: 2,
    truncated: false,
    contacts: [
      { id: "c1", name: "Bob", phone: "+8613812345678" },
      { id: "c2", name: "Carol", email: "carol@example.com" },
    ],
  },
  memory_updated: { kind: "memory_updated", memory_kind: "work_profile", mode: "replace", updated_fields: ["working_hours"], version: 1 },
  tool_list: {
    kind: "tool_list",
    query: "unit",
    count: 1,
    tools: [{ tool_id: "unit_convert", name: "Unit converter", category: "convert" }],
  },
  tool_detail: {
    kind: "tool_detail",
    tool_id: "unit_convert",
    name: "Unit converter",
    category: "convert",
    params: [
      { name: "value", required: true },
      { name: "precision", required: false },
    ],
  },
  tool_result: { kind: "tool_result", tool_id: "unit_convert", values: [{ name: "value", value: "6.2137" }], hidden: 1 },
  action_failed: {
    kind: "action_failed",
    action: "calendar.update",
    code: "FORBIDDEN",
    message: 'your access to this event is "view"',
    retryable: false,
    suggestion: "ask the owner for edit permission",
  },
};
const samples = Object.values(SAMPLES) as UiHints[];

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object") {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

describe("every kind", () => {
  test.each(samples.map((hints) => [hints.kind, hints] as const))(
    "%s: hints validate, the card validates and is named after the kind",
    (kind, hints) => {
      expect(UiHints.parse(hints)).toEqual(hints);
      const schema = compileCard(hints);
      expect(UiSchema.safeParse(schema).error).toBeUndefined();
      expect(schema.schema_version).toBe(UI_SCHEMA_VERSION);
      expect(schema.card).toBe(kind);
    },
  );

  test("the samples cover every block type", () => {
    const used = new Set(samples.flatMap((hints) => compileCard(hints).blocks.map((block) => block.type)));
    expect([...used].sort()).toEqual(Block.options.map((option) => option.shape.type.value).sort());
  });
});

describe("determinism", () => {
  test.each(samples.map((hints) => [hints.kind, hints] as const))(
    "%s: same card from a stored (JSON round-tripped) copy, input untouched",
    (_kind, hints) => {
      const frozen = deepFreeze(structuredClone(hints));
      const first = compileCard(frozen); // would throw if the codec mutated its input
      const replayed = compileCard(JSON.parse(JSON.stringify(hints)) as UiHints);
      expect(replayed).toEqual(first);
      expect(JSON.stringify(replayed)).toBe(JSON.stringify(first)); // same key order too
      expect(frozen).toEqual(hints);
    },
  );

  const text = fc.string({ maxLength: 40 });
  const eventHint = fc.record(
    {
      id: text,
      title: text,
      start_at: text,
      end_at: fc.option(text, { nil: null }),
      timezone: text,
      status: fc.constantFrom("active", "archived", "cancelled"),
      access: fc.constantFrom("owner", "view", "edit", "invite"),
      location: text,
    },
    { requiredKeys: ["id", "title", "start_at", "end_at", "timezone", "status", "access"] },
  );
  const period = fc.oneof(
    fc.record({ mode: fc.constant("day"), date: text, timezone: text }),
    fc.record({ mode: fc.constant("range"), start_at: text, end_at: text }),
  );
  const anyHints: fc.Arbitrary<UiHints> = fc.oneof(
    fc.record({
      kind: fc.constant("event_list"),
      period,
      count: fc.nat(300),
      truncated: fc.boolean(),
      events: fc.array(eventHint, { maxLength: 5 }),
    }),
    fc.record({ kind: fc.constant("event_updated"), event: eventHint, changed_fields: fc.array(text, { maxLength: 4 }) }),
    fc.record({ kind: fc.constant("event_deleted"), event_id: text, title: text }),
    fc.record(
      {
        kind: fc.constant("invitation_answered"),
        answer: fc.constantFrom("accepted", "rejected"),
        event_id: text,
        permission: fc.constantFrom("view", "edit", "invite"),
        event: eventHint,
      },
      { requiredKeys: ["kind", "answer", "event_id", "permission"] },
    ),
    fc.record({
      kind: fc.constant("memory_updated"),
      memory_kind: fc.constantFrom("user_memory", "work_profile"),
      mode: fc.constantFrom("merge", "replace"),
      updated_fields: fc.array(text, { maxLength: 4 }),
      version: fc.integer(),
    }),
    fc.record(
      {
        kind: fc.constant("action_failed"),
        action: fc.constantFrom("calendar.read", "contacts.read", "memory.update"),
        code: text,
        message: text,
        retryable: fc.boolean(),
        suggestion: text,
      },
      { requiredKeys: ["kind", "action", "code", "message", "retryable"] },
    ),
  ) as fc.Arbitrary<UiHints>;

  test("any valid hints, including empty strings, compile to a valid card, the same every time", () => {
    fc.assert(
      fc.property(anyHints, (hints) => {
        expect(UiHints.safeParse(hints).success).toBe(true);
        const card = compileCard(hints);
        expect(UiSchema.safeParse(card).error).toBeUndefined();
        expect(compileCard(structuredClone(hints))).toEqual(card);
      }),
      { numRuns: 300 },
    );
  });
});

describe("titles and blocks", () => {
  const list = (count: number, truncated = false): UiHints => ({
    ...SAMPLES.event_list,
    count,
    truncated,
    events: Array.from({ length: count }, () => EVENT),
  });

  test.each([
    [0, "No events on 2026-04-23"],
    [1, "1 event on 2026-04-23"],
    [3, "3 events on 2026-04-23"],
  ])("a day with %i events is titled %s", (count, title) => {
    expect(compileCard(list(count)).title).toBe(title);
  });

  test("a range is titled by the local dates of its ends, with the exact instants as subtitle", () => {
    const schema = compileCard({
      ...SAMPLES.event_list,
      period: { mode: "range", start_at: "2026-04-20T00:00:00-07:00", end_at: "2026-04-27T00:00:00-07:00" },
    });
    expect(schema.title).toBe("1 event from 2026-04-20 to 2026-04-27");
    expect(schema.subtitle).toBe("2026-04-20T00:00:00-07:00 – 2026-04-27T00:00:00-07:00");
  });

  test("a truncated list ends with a warning; an empty one with an info notice", () => {
    expect(compileCard(list(2, true)).blocks.at(-1)).toEqual({
      type: "notice",
      tone: "warning",
      text: "Only the first 2 events are shown; narrow the period to see the rest.",
    });
    expect(compileCard(list(0)).blocks).toEqual([{ type: "notice", tone: "info", text: "Nothing scheduled." }]);
  });

  test("an event block carries every field a card needs, location only when known", () => {
    expect(compileCard(SAMPLES.event_created).blocks[0]).toEqual({ type: "event", ...EVENT });
    const { location: _dropped, ...noLocation } = EVENT;
    expect(compileCard({ kind: "event_created", event: noLocation }).blocks[0]).not.toHaveProperty("location");
  });

  test("changed fields are named in words; unknown ones are de-underscored", () => {
    expect(compileCard(SAMPLES.event_updated).blocks[1]).toEqual({
      type: "fields",
      items: [{ label: "Changed", value: "title, repeat rule, custom field" }],
    });
  });

  test("contacts: counted title, with the query when searched", () => {
    expect(compileCard(SAMPLES.contact_list).title).toBe("2 contacts");
    expect(compileCard({ ...SAMPLES.contact_list, query: { field: "email", value: "carol@" } }).title).toBe('2 contacts matching "carol@"');
    expect(compileCard({ ...SAMPLES.contact_list, count: 0, contacts: [] }).title).toBe("No contacts");
  });

  test("memory: the title names the document; fields are humanized", () => {
    expect(compileCard(SAMPLES.memory_updated)).toEqual({
      schema_version: 2,
      card: "memory_updated",
      title: "Work profile updated",
      subtitle: "Version 1",
      blocks: [
        {
          type: "fields",
          items: [
            { label: "Updated", value: "working hours" },
            { label: "Mode", value: "Replaced the stored document" },
          ],
        },
      ],
    });
    expect(compileCard({ ...SAMPLES.memory_updated, memory_kind: "user_memory" }).title).toBe("Memory updated");
  });

  test("a failure speaks to the person: the action in the title, the code in plain words, none of the tool's text", () => {
    expect(compileCard(SAMPLES.action_failed)).toEqual({
      schema_version: 2,
      card: "action_failed",
      title: "Could not update the event",
      blocks: [{ type: "notice", tone: "error", text: "You do not have permission to do this. The event's owner can change that." }],
    });
    for (const code of ["INVALID_ACTION_INPUT", "NOT_FOUND", "CONFLICT", "UPSTREAM_UNAVAILABLE", "INTERNAL", "SOMETHING_NEW"]) {
      const text = JSON.stringify(compileCard({ ...SAMPLES.action_failed, code, message: "input.patch.end_at: must be after start_at" }));
      expect(text, code).not.toMatch(/input\.|patch|end_at|calendar\.|FORBIDDEN|INVALID|NOT_FOUND|ask the owner/);
    }
    expect(JSON.stringify(compileCard({ ...SAMPLES.action_failed, code: "UPSTREAM_UNAVAILABLE" }))).toContain("try again");
    expect(compileCard({ ...SAMPLES.action_failed, code: "SOMETHING_NEW" })).toEqual(
      compileCard({ ...SAMPLES.action_failed, code: "INTERNAL" }),
    );
  });

  test("each failing action has its own title", () => {
    const titles = HINTED_ACTIONS.map((action) => compileCard({ ...SAMPLES.action_failed, action }).title);
    expect(new Set(titles).size).toBe(HINTED_ACTIONS.length);
    expect(titles.every((title) => title.startsWith("Could not "))).toBe(true);
  });
});

describe("the published schemas refuse what cannot be rendered", () => {
  const good = compileCard(SAMPLES.event_deleted);
  test.each([
    ["another version", { ...good, schema_version: 1 }],
    ["an unknown card", { ...good, card: "weather" }],
    ["an empty title", { ...good, title: "" }],
    ["an unknown block type", { ...good, blocks: [{ type: "chart", points: [] }] }],
    ["an unknown tone", { ...good, blocks: [{ type: "notice", tone: "loud", text: "x" }] }],
    ["an empty fields block", { ...good, blocks: [{ type: "fields", items: [] }] }],
    ["an extra key", { ...good, html: "<b>x</b>" }],
  ])("%s", (_what, schema) => {
    expect(UiSchema.safeParse(schema).success).toBe(false);
  });

  test.each([
    ["an unknown kind", { kind: "weather" }],
    ["an uncarded action failing", { ...SAMPLES.action_failed, action: "memory.read" }],
    ["an event with an unknown access", { kind: "event_detail", event: { ...EVENT, access: "admin" } }],
    ["leaked extra data", { ...SAMPLES.event_created, description: "long text" }],
  ])("hints: %s", (_what, hints) => {
    expect(UiHints.safeParse(hints).success).toBe(false);
  });
});
