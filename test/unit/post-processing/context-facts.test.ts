// The line later turns get for a tool call: its summary plus the ids and key facts of what it
// touched, flat, bounded, and nothing for failures but the summary.
import { describe, expect, test } from "vitest";
import { CONTEXT_MAX_LENGTH, postProcessToolCall } from "../../../functions/agent/post-processing/index.ts";
import { type CliResult, failure } from "../../../functions/project_cli/result.ts";

const ID = "a0000000-0000-4000-8000-000000000001";
const context = (module: string, method: string, output: CliResult) =>
  postProcessToolCall({ toolName: "project_cli", toolCallId: "c1", args: { module, method, input: {} }, output }).context;
const ok = (module: string, method: string, data: unknown): CliResult => ({ ok: true, module, method, data });
const event = (n: number, overrides: Record<string, unknown> = {}) => ({
  id: `a0000000-0000-4000-8000-00000000000${n}`,
  title: `Meeting ${n}`,
  start_at: "2026-04-23T16:00:00+08:00",
  end_at: "2026-04-23T17:00:00+08:00",
  recurrence_rule: null,
  ...overrides,
});

describe("context facts", () => {
  test("a day read names each event by id, title and time, after the summary", () => {
    const data = {
      mode: "day",
      date: "2026-04-23",
      timezone: "Asia/Shanghai",
      items: [event(1), event(2, { end_at: null, recurrence_rule: "FREQ=WEEKLY" })],
      count: 2,
      truncated: false,
    };
    expect(context("calendar", "read", ok("calendar", "read", data))).toBe(
      `Found 2 events on 2026-04-23: event_id ${ID} "Meeting 1" 2026-04-23T16:00:00+08:00–2026-04-23T17:00:00+08:00; ` +
        'event_id a0000000-0000-4000-8000-000000000002 "Meeting 2" 2026-04-23T16:00:00+08:00 repeats FREQ=WEEKLY',
    );
  });

  test("contacts carry the phone, e-mail and linked account; invitations the inviter", () => {
    const contacts = {
      contacts: [{ id: "c", display_name: "Bob Chen", phone: "+8613812345678", email: null, linked_user_id: "u-bob", notes: "secret" }],
      count: 1,
      truncated: false,
    };
    const line = context("contacts", "read", ok("contacts", "read", contacts));
    expect(line).toBe('Found 1 contact: contact "Bob Chen" +8613812345678 user_id u-bob');
    expect(line).not.toContain("secret");
    const invitations = {
      invitations: [
        {
          event: event(1),
          permission: "view",
          invited_at: "x",
          inviter: { user_id: "u", name: null, email: "alice@example.com", phone: null },
        },
      ],
      count: 1,
      truncated: false,
    };
    expect(context("calendar", "invitations", ok("calendar", "invitations", invitations))).toContain(`event_id ${ID} "Meeting 1"`);
    expect(context("calendar", "invitations", ok("calendar", "invitations", invitations))).toContain("from alice@example.com");
  });

  test("a failure gives its summary only; a long list is cut and says so; the line stays flat and bounded", () => {
    expect(context("calendar", "update", failure("calendar", "update", "NOT_FOUND", "no event x is visible to you"))).toBe(
      "calendar.update failed: no event x is visible to you",
    );
    const many = Array.from({ length: 12 }, (_, i) => event(i % 10, { title: `Line\nbreak\u0007 ${i} ${"x".repeat(40)}` }));
    const line = context(
      "calendar",
      "read",
      ok("calendar", "read", { mode: "day", date: "2026-04-23", timezone: "UTC", items: many, count: 12, truncated: false }),
    );
    expect(line.length).toBeLessThanOrEqual(CONTEXT_MAX_LENGTH);
    expect(line.includes("\n") || line.includes("\u0007")).toBe(false);
    expect(line).toMatch(/; and \d+ more$/);
    // Short facts: the first eight, then how many more.
    const short = Array.from({ length: 10 }, (_, i) => ({ id: `e${i}`, title: `M${i}` }));
    const cut = context(
      "calendar",
      "read",
      ok("calendar", "read", { mode: "day", date: "2026-04-23", timezone: "UTC", items: short, count: 10, truncated: false }),
    );
    expect(cut).toMatch(/"M7"; and 2 more$/);
  });
});
