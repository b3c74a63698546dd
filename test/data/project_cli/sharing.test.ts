// Sharing through project_cli: share -> accept -> the invitee reads it; reject; the invitee
// lists its pending invitations and answers from that list; and nobody
// acts on an event that is not theirs, even knowing its id.
import { beforeEach, describe, expect, test } from "vitest";
import { type CliCaller, cliAs } from "../../support/project-cli.ts";
import { createUser, superuser } from "../../support/users.ts";

let owner: CliCaller;
let guest: CliCaller;
let stranger: CliCaller;
let guestPhone: string;
let eventId: string;

beforeEach(async () => {
  [owner, guest, stranger] = await Promise.all([
    cliAs(await createUser("owner")),
    cliAs(await createUser("guest")),
    cliAs(await createUser("stranger")),
  ]);
  const rows = await superuser((db) => db.query<{ phone: string }>("select phone from auth.users where id = $1", [guest.userId]));
  guestPhone = rows.rows[0]!.phone;
  const created = await owner.ok("calendar", "create", {
    title: "Design review",
    start_at: "2026-07-01T14:00:00+02:00",
    end_at: "2026-07-01T15:00:00+02:00",
    timezone: "Europe/Berlin",
  });
  eventId = created.event.id;
});

const share = (by: CliCaller, invitee: Record<string, string>, permissions: Record<string, boolean> = { view: true }) =>
  by.call("calendar", "share", { event_id: eventId, invitee, permissions });

describe("share -> accept -> read", () => {
  test("share by phone, then the invitee accepts and reads the event", async () => {
    const shared = await share(owner, { phone: guestPhone }, { view: true, edit: true });
    expect(shared).toMatchObject({
      ok: true,
      data: {
        invitation: { status: "pending", permission: "edit", invitee_user_id: guest.userId, matched_by: "phone" },
        event: { id: eventId, title: "Design review" },
      },
    });
    expect(await guest.fail("calendar", "read", { mode: "event", event_id: eventId })).toMatchObject({ code: "NOT_FOUND" });

    const accepted = await guest.ok("calendar", "accept_invite", { event_id: eventId });
    expect(accepted).toMatchObject({ invitation: { status: "accepted", permission: "edit" }, event: { id: eventId, access: "edit" } });
    const day = await guest.ok("calendar", "read", { mode: "day", date: "2026-07-01", timezone: "Europe/Berlin" });
    expect(day.items).toMatchObject([{ id: eventId, access: "edit", owner_id: owner.userId }]);
    // edit lets the guest change it; the owner sees the share.
    await guest.ok("calendar", "update", { event_id: eventId, patch: { title: "Design review (moved)" } });
    const seen = await owner.ok("calendar", "read", { mode: "event", event_id: eventId });
    expect(seen.event).toMatchObject({
      title: "Design review (moved)",
      shared_with: [{ user_id: guest.userId, permission: "edit", status: "accepted" }],
    });
  });

  test("share by e-mail and by user id", async () => {
    const email = (await superuser((db) => db.query<{ email: string }>("select email from auth.users where id = $1", [guest.userId])))
      .rows[0]!.email;
    expect(await share(owner, { email: email.toUpperCase() })).toMatchObject({
      ok: true,
      data: { invitation: { matched_by: "email", invitee_user_id: guest.userId } },
    });
    expect(await share(owner, { user_id: stranger.userId })).toMatchObject({ ok: true, data: { invitation: { matched_by: "user_id" } } });
  });

  test("reject: the event stays invisible, and a declined invitation cannot be accepted later", async () => {
    await share(owner, { user_id: guest.userId });
    expect(await guest.ok("calendar", "reject_invite", { event_id: eventId })).toMatchObject({ invitation: { status: "rejected" } });
    expect(await guest.fail("calendar", "read", { mode: "event", event_id: eventId })).toMatchObject({ code: "NOT_FOUND" });
    expect(await guest.fail("calendar", "accept_invite", { event_id: eventId })).toMatchObject({ code: "CONFLICT" });
  });

  test("a view-only guest cannot change, delete or share, and is told why", async () => {
    await share(owner, { user_id: guest.userId });
    await guest.ok("calendar", "accept_invite", { event_id: eventId });
    expect(await guest.fail("calendar", "update", { event_id: eventId, patch: { title: "x" } })).toMatchObject({
      code: "FORBIDDEN",
      details: { access: "view" },
    });
    const deleted = await guest.fail("calendar", "delete", { event_id: eventId });
    expect(deleted).toMatchObject({ code: "FORBIDDEN", details: { suggestion: expect.stringContaining("reject_invite") } });
    expect((await share(guest, { user_id: stranger.userId })).ok).toBe(false);
  });
});

describe("refusals", () => {
  test("a stranger cannot read, change, share or accept the event, even with its id", async () => {
    await share(owner, { user_id: guest.userId });
    for (const [method, input] of [
      ["read", { mode: "event", event_id: eventId }],
      ["update", { event_id: eventId, patch: { title: "hijacked" } }],
      ["delete", { event_id: eventId }],
      ["share", { event_id: eventId, invitee: { user_id: stranger.userId }, permissions: { view: true } }],
      ["accept_invite", { event_id: eventId }],
    ] as const) {
      expect(await stranger.fail("calendar", method, input), method).toMatchObject({ code: "NOT_FOUND" });
    }
    const seen = await owner.ok("calendar", "read", { mode: "event", event_id: eventId });
    expect(seen.event.title).toBe("Design review");
  });

  test("inviting yourself, the owner, an unknown phone, or twice", async () => {
    expect(
      await owner.fail("calendar", "share", { event_id: eventId, invitee: { user_id: owner.userId }, permissions: { view: true } }),
    ).toMatchObject({ code: "INVALID_ACTION_INPUT" });
    expect(
      await owner.fail("calendar", "share", { event_id: eventId, invitee: { phone: "+19999999999" }, permissions: { view: true } }),
    ).toMatchObject({ code: "NOT_FOUND" });
    await share(owner, { user_id: guest.userId }, { view: true, edit: true, invite: true });
    await guest.ok("calendar", "accept_invite", { event_id: eventId });
    expect(
      await guest.fail("calendar", "share", { event_id: eventId, invitee: { user_id: owner.userId }, permissions: { view: true } }),
    ).toMatchObject({ code: "CONFLICT" });
    expect(
      await owner.fail("calendar", "share", { event_id: eventId, invitee: { user_id: guest.userId }, permissions: { view: true } }),
    ).toMatchObject({ code: "CONFLICT" });
  });

  test("permissions are booleans with a consistent level", async () => {
    const error = await owner.fail("calendar", "share", {
      event_id: eventId,
      invitee: { user_id: guest.userId },
      permissions: { view: true, edit: false, invite: true },
    });
    expect(error).toMatchObject({ code: "INVALID_ACTION_INPUT", details: { invalid_fields: [{ field: "input.permissions.edit" }] } });
  });
});

describe("calendar.invitations", () => {
  test("the invitee finds who invited it, to what and when, and answers from that alone", async () => {
    const ownerRow = await superuser((db) =>
      db.query<{ email: string; phone: string }>("select email, phone from auth.users where id = $1", [owner.userId]),
    );
    // The guest knows the owner as "Alice" in its own contacts.
    await superuser((db) =>
      db.query("insert into contacts (owner_id, display_name, linked_user_id) values ($1, 'Alice', $2)", [guest.userId, owner.userId]),
    );
    await share(owner, { user_id: guest.userId }, { view: true, edit: true });
    const later = await owner.ok("calendar", "create", {
      title: "Offsite",
      start_at: "2026-07-09T09:00:00+02:00",
      timezone: "Europe/Berlin",
      description: "not for invitees' eyes yet",
    });
    await owner.ok("calendar", "share", { event_id: later.event.id, invitee: { user_id: guest.userId }, permissions: { view: true } });

    const listed = await guest.ok("calendar", "invitations", {});
    expect(listed).toEqual({
      invitations: [
        {
          event: {
            id: eventId,
            title: "Design review",
            start_at: "2026-07-01T14:00:00+02:00",
            end_at: "2026-07-01T15:00:00+02:00",
            timezone: "Europe/Berlin",
            status: "active",
            recurrence_rule: null,
          },
          permission: "edit",
          invited_at: expect.any(String),
          inviter: {
            user_id: owner.userId,
            name: "Alice",
            email: ownerRow.rows[0]!.email,
            phone: `+${ownerRow.rows[0]!.phone.replace(/^\+/, "")}`,
          },
        },
        expect.objectContaining({
          event: expect.objectContaining({ id: later.event.id, title: "Offsite", end_at: null }),
          permission: "view",
        }),
      ],
      count: 2,
      truncated: false,
    });
    // A preview only: nothing beyond who, what and when.
    expect(JSON.stringify(listed)).not.toContain("not for invitees");

    // Answer from the list: accept the first, decline the second; neither is pending any more.
    const [first, second] = listed.invitations;
    await guest.ok("calendar", "accept_invite", { event_id: first.event.id });
    await guest.ok("calendar", "reject_invite", { event_id: second.event.id });
    expect(await guest.ok("calendar", "invitations", {})).toEqual({ invitations: [], count: 0, truncated: false });
  });

  test("only the invitee's own pending invitations: not the inviter's, not a stranger's; the limit says when it cut", async () => {
    await share(owner, { user_id: guest.userId });
    for (const caller of [owner, stranger])
      expect(await caller.ok("calendar", "invitations", {}), caller.userId).toMatchObject({ count: 0 });
    for (const day of ["02", "03"]) {
      const event = await owner.ok("calendar", "create", { title: `Day ${day}`, start_at: `2026-07-${day}T09:00:00Z`, timezone: "UTC" });
      await owner.ok("calendar", "share", { event_id: event.event.id, invitee: { user_id: guest.userId }, permissions: { view: true } });
    }
    const cut = await guest.ok("calendar", "invitations", { limit: 2 });
    expect(cut).toMatchObject({ count: 2, truncated: true });
    expect(cut.invitations.map((i: { event: { title: string } }) => i.event.title)).toEqual(["Design review", "Day 02"]);
    expect(await guest.fail("calendar", "invitations", { limit: 51 })).toMatchObject({ code: "INVALID_ACTION_INPUT" });
  });
});
