// calendar.* through project_cli against the real database: every method's happy path and
// the errors a caller can get.
import { beforeEach, describe, expect, test } from "vitest";
import { type CliCaller, cliAs } from "../../support/project-cli.ts";
import { createUser } from "../../support/users.ts";

let me: CliCaller;
let other: CliCaller;

beforeEach(async () => {
  [me, other] = await Promise.all([createUser("me").then(cliAs), createUser("other").then(cliAs)]);
});

const sync = {
  title: "Project sync",
  start_at: "2026-04-23T16:00:00+08:00",
  end_at: "2026-04-23T17:00:00+08:00",
  timezone: "Asia/Shanghai",
  metadata: { location: "Room 4", reminder_minutes: 30 },
};

async function createSync(caller = me, overrides: Record<string, unknown> = {}) {
  return (await caller.ok("calendar", "create", { ...sync, ...overrides })).event;
}

describe("happy paths", () => {
  test("create returns the event in its own zone, owned by the caller", async () => {
    const event = await createSync();
    expect(event).toMatchObject({
      title: "Project sync",
      start_at: "2026-04-23T16:00:00+08:00",
      end_at: "2026-04-23T17:00:00+08:00",
      timezone: "Asia/Shanghai",
      metadata: { location: "Room 4", reminder_minutes: 30 },
      status: "active",
      source_type: "agent",
      access: "owner",
      owner_id: me.userId,
      shared_with: [],
    });
  });

  test("read mode=event returns one event by id", async () => {
    const event = await createSync();
    const data = await me.ok("calendar", "read", { mode: "event", event_id: event.id });
    expect(data).toMatchObject({ mode: "event", event: { id: event.id, title: "Project sync" } });
  });

  test("read mode=day uses the calendar day of the given zone", async () => {
    // 23:30 in Shanghai on the 23rd is 15:30 UTC the same day; 00:30 on the 24th is 16:30 UTC on the 23rd.
    const late = await createSync(me, { title: "Late call", start_at: "2026-04-23T23:30:00+08:00", end_at: "2026-04-23T23:50:00+08:00" });
    const next = await createSync(me, {
      title: "Next morning",
      start_at: "2026-04-24T00:30:00+08:00",
      end_at: "2026-04-24T01:00:00+08:00",
    });
    const shanghai = await me.ok("calendar", "read", { mode: "day", date: "2026-04-23", timezone: "Asia/Shanghai" });
    expect(shanghai.items.map((item: { id: string }) => item.id)).toContain(late.id);
    expect(shanghai.items.map((item: { id: string }) => item.id)).not.toContain(next.id);
    const utc = await me.ok("calendar", "read", { mode: "day", date: "2026-04-23", timezone: "UTC" });
    expect(utc.items.map((item: { id: string }) => item.id)).toEqual(expect.arrayContaining([late.id, next.id]));
  });

  test("read mode=range returns overlapping events in start order, with a count", async () => {
    const a = await createSync(me, { title: "A", start_at: "2026-05-01T09:00:00Z", end_at: "2026-05-01T10:00:00Z", timezone: "UTC" });
    const b = await createSync(me, { title: "B", start_at: "2026-05-01T08:00:00Z", end_at: "2026-05-01T09:30:00Z", timezone: "UTC" });
    await createSync(me, { title: "Outside", start_at: "2026-05-02T09:00:00Z", end_at: "2026-05-02T10:00:00Z", timezone: "UTC" });
    const data = await me.ok("calendar", "read", { mode: "range", start_at: "2026-05-01T09:15:00Z", end_at: "2026-05-01T12:00:00Z" });
    expect(data.items.map((item: { title: string }) => item.title)).toEqual(["B", "A"]);
    expect(data).toMatchObject({ count: 2, truncated: false });
    expect([a.id, b.id]).toEqual(expect.arrayContaining(data.items.map((item: { id: string }) => item.id)));
  });

  test("limit bounds the list and says it was truncated", async () => {
    for (const hour of ["08", "09", "10"]) {
      await createSync(me, { start_at: `2026-06-01T${hour}:00:00Z`, end_at: `2026-06-01T${hour}:30:00Z`, timezone: "UTC" });
    }
    const data = await me.ok("calendar", "read", { mode: "day", date: "2026-06-01", timezone: "UTC", limit: 2 });
    expect(data).toMatchObject({ count: 2, truncated: true });
  });

  test("update changes fields; archiving is patch.status and hides it from the default list", async () => {
    const event = await createSync();
    const updated = await me.ok("calendar", "update", {
      event_id: event.id,
      patch: { title: "Renamed", start_at: "2026-04-23T18:00:00+08:00", end_at: "2026-04-23T19:00:00+08:00" },
    });
    expect(updated).toMatchObject({
      event: { title: "Renamed", start_at: "2026-04-23T18:00:00+08:00" },
      changed_fields: ["title", "start_at", "end_at"],
    });
    await me.ok("calendar", "update", { event_id: event.id, patch: { status: "archived" } });
    const active = await me.ok("calendar", "read", { mode: "day", date: "2026-04-23", timezone: "Asia/Shanghai" });
    expect(active.items).toEqual([]);
    const all = await me.ok("calendar", "read", { mode: "day", date: "2026-04-23", timezone: "Asia/Shanghai", status: "all" });
    expect(all.items).toMatchObject([{ id: event.id, status: "archived" }]);
  });

  test("update merges metadata: a reminder set later keeps the location and notes; null removes a key", async () => {
    const event = await createSync(me, { metadata: { location: "Room 4", notes: "bring the roadmap" } });
    const reminded = await me.ok("calendar", "update", { event_id: event.id, patch: { metadata: { reminder_minutes: 15 } } });
    expect(reminded.event.metadata).toEqual({ location: "Room 4", notes: "bring the roadmap", reminder_minutes: 15 });
    const moved = await me.ok("calendar", "update", { event_id: event.id, patch: { metadata: { location: null, color: "blue" } } });
    expect(moved.event.metadata).toEqual({ notes: "bring the roadmap", reminder_minutes: 15, color: "blue" });
  });

  test("moving the start alone keeps the duration; an end in the patch wins; an event without an end keeps none", async () => {
    const event = await createSync(); // 16:00-17:00 in Shanghai
    const moved = await me.ok("calendar", "update", { event_id: event.id, patch: { start_at: "2026-04-23T17:30:00+08:00" } });
    expect(moved.event).toMatchObject({ start_at: "2026-04-23T17:30:00+08:00", end_at: "2026-04-23T18:30:00+08:00" });
    expect(moved.changed_fields).toEqual(["start_at", "end_at"]);
    const both = await me.ok("calendar", "update", {
      event_id: event.id,
      patch: { start_at: "2026-04-23T09:00:00+08:00", end_at: "2026-04-23T09:15:00+08:00" },
    });
    expect(both.event).toMatchObject({ start_at: "2026-04-23T09:00:00+08:00", end_at: "2026-04-23T09:15:00+08:00" });
    const open = await createSync(me, { end_at: undefined });
    const openMoved = await me.ok("calendar", "update", { event_id: open.id, patch: { start_at: "2026-04-24T10:00:00+08:00" } });
    expect(openMoved.event).toMatchObject({ start_at: "2026-04-24T10:00:00+08:00", end_at: null });
    expect(openMoved.changed_fields).toEqual(["start_at"]);
  });

  test("an editor's update keeps data the same way; a viewer's is refused", async () => {
    const event = await createSync(me, { metadata: { location: "Room 4", notes: "agenda" } });
    const viewer = await createUser("viewer").then(cliAs);
    for (const [caller, permissions] of [
      [other, { view: true, edit: true }],
      [viewer, { view: true }],
    ] as const) {
      await me.ok("calendar", "share", { event_id: event.id, invitee: { user_id: caller.userId }, permissions });
      await caller.ok("calendar", "accept_invite", { event_id: event.id });
    }
    const edited = await other.ok("calendar", "update", { event_id: event.id, patch: { metadata: { reminder_minutes: 5 } } });
    expect(edited.event.metadata).toEqual({ location: "Room 4", notes: "agenda", reminder_minutes: 5 });
    expect(await viewer.fail("calendar", "update", { event_id: event.id, patch: { title: "Mine" } })).toMatchObject({ code: "FORBIDDEN" });
    expect((await me.ok("calendar", "read", { mode: "event", event_id: event.id })).event.title).toBe("Project sync");
  });

  test("delete removes the event", async () => {
    const event = await createSync();
    expect(await me.ok("calendar", "delete", { event_id: event.id })).toEqual({ deleted: { id: event.id, title: "Project sync" } });
    expect(await me.fail("calendar", "read", { mode: "event", event_id: event.id })).toMatchObject({ code: "NOT_FOUND" });
  });
});

describe("errors", () => {
  test("NOT_FOUND for an id nobody shared with you", async () => {
    const event = await createSync(other);
    for (const [method, input] of [
      ["read", { mode: "event", event_id: event.id }],
      ["update", { event_id: event.id, patch: { title: "Mine now" } }],
      ["delete", { event_id: event.id }],
      ["share", { event_id: event.id, invitee: { user_id: me.userId }, permissions: { view: true } }],
      ["accept_invite", { event_id: event.id }],
      ["reject_invite", { event_id: event.id }],
    ] as const) {
      expect(await me.fail("calendar", method, input), method).toMatchObject({ code: "NOT_FOUND", retryable: false });
    }
    expect((await other.ok("calendar", "read", { mode: "event", event_id: event.id })).event.title).toBe("Project sync");
  });

  test("an update whose end falls before the stored start is INVALID_ACTION_INPUT", async () => {
    const event = await createSync();
    const error = await me.fail("calendar", "update", { event_id: event.id, patch: { end_at: "2026-04-23T15:00:00+08:00" } });
    expect(error).toMatchObject({ code: "INVALID_ACTION_INPUT", details: { invalid_fields: [{ field: "input.patch.end_at" }] } });
  });

  test("errors never carry SQL, database wording or tokens", async () => {
    const event = await createSync();
    const error = await me.fail("calendar", "update", { event_id: event.id, patch: { end_at: "2026-04-23T15:00:00+08:00" } });
    const text = JSON.stringify(error);
    expect(text).not.toMatch(/constraint|violates|schedule_items_end_after_start|select|eyJ/i);
  });
});
