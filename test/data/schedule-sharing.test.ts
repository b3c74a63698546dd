// Sharing rules of schedule_items / schedule_subscriptions, as each user experiences them
// through PostgREST: invitation visibility, accept / reject, and what each permission allows.
import type { SupabaseClient } from "@supabase/supabase-js";
import { beforeEach, describe, expect, test } from "vitest";
import { clientAs, createUser, superuser } from "../support/users.ts";

interface Party {
  id: string;
  db: SupabaseClient;
}

async function party(label: string): Promise<Party> {
  const id = await createUser(label);
  return { id, db: await clientAs(id) };
}

let owner: Party;
let guest: Party;
let stranger: Party;
let itemId: string;

beforeEach(async () => {
  [owner, guest, stranger] = await Promise.all([party("owner"), party("guest"), party("stranger")]);
  const { data, error } = await owner.db
    .from("schedule_items")
    .insert({ owner_id: owner.id, title: "Launch review", start_at: "2026-12-01T09:00:00Z", end_at: "2026-12-01T10:00:00Z" })
    .select("id")
    .single();
  expect(error).toBeNull();
  itemId = data!.id as string;
});

async function invite(by: Party, to: Party, permission = "view") {
  return by.db
    .from("schedule_subscriptions")
    .insert({ item_id: itemId, subscriber_id: to.id, invited_by: by.id, permission })
    .select()
    .single();
}

async function answer(who: Party, status: "accepted" | "rejected") {
  return who.db.from("schedule_subscriptions").update({ status }).eq("item_id", itemId).eq("subscriber_id", who.id).select();
}

const seesItem = async (who: Party) => ((await who.db.from("schedule_items").select("id").eq("id", itemId)).data ?? []).length === 1;

describe("invitation", () => {
  test("the owner invites; the invitation starts pending and names the owner as inviter", async () => {
    const { data, error } = await invite(owner, guest, "edit");
    expect(error).toBeNull();
    expect(data).toMatchObject({ status: "pending", permission: "edit", invited_by: owner.id, responded_at: null });
  });

  test("a pending invitee sees the invitation but not the item", async () => {
    await invite(owner, guest);
    const { data } = await guest.db.from("schedule_subscriptions").select("item_id, status").eq("item_id", itemId);
    expect(data).toEqual([{ item_id: itemId, status: "pending" }]);
    expect(await seesItem(guest)).toBe(false);
  });

  test("a stranger sees neither the item nor the invitation", async () => {
    await invite(owner, guest);
    expect(await seesItem(stranger)).toBe(false);
    const { data } = await stranger.db.from("schedule_subscriptions").select("id").eq("item_id", itemId);
    expect(data).toEqual([]);
  });

  test("nobody but the owner (or an invite-level subscriber) can share the item", async () => {
    const { error } = await invite(stranger, guest);
    expect(error?.code).toBe("42501");
  });

  test("an invitation cannot be created already accepted", async () => {
    const { error } = await owner.db
      .from("schedule_subscriptions")
      .insert({ item_id: itemId, subscriber_id: guest.id, invited_by: owner.id, status: "accepted" });
    expect(error?.code).toBe("42501");
  });

  test("the owner cannot invite itself, and a user cannot invite itself", async () => {
    expect((await invite(owner, owner)).error?.code).toBe("42501");
    const selfInvite = await guest.db
      .from("schedule_subscriptions")
      .insert({ item_id: itemId, subscriber_id: guest.id, invited_by: guest.id });
    expect(selfInvite.error?.code).toBe("42501");
  });

  test("inviting the same person twice is a conflict", async () => {
    await invite(owner, guest);
    expect((await invite(owner, guest)).error?.code).toBe("23505");
  });
});

describe("answering", () => {
  test("after accepting, the invitee sees the item and responded_at is set", async () => {
    await invite(owner, guest);
    const { data, error } = await answer(guest, "accepted");
    expect(error).toBeNull();
    expect(data?.[0]?.responded_at).not.toBeNull();
    expect(await seesItem(guest)).toBe(true);
  });

  test("after rejecting, the invitee still does not see the item", async () => {
    await invite(owner, guest);
    await answer(guest, "rejected");
    expect(await seesItem(guest)).toBe(false);
  });

  test("leaving (accepted -> rejected) hides the item again", async () => {
    await invite(owner, guest);
    await answer(guest, "accepted");
    await answer(guest, "rejected");
    expect(await seesItem(guest)).toBe(false);
  });

  test("a rejected invitation cannot be accepted later", async () => {
    await invite(owner, guest);
    await answer(guest, "rejected");
    const { error } = await answer(guest, "accepted");
    expect(error?.code).toBe("22023");
    expect(await seesItem(guest)).toBe(false);
  });

  test("the owner cannot accept on the invitee's behalf", async () => {
    await invite(owner, guest);
    const { error } = await owner.db.from("schedule_subscriptions").update({ status: "accepted" }).eq("item_id", itemId).select();
    expect(error?.code).toBe("42501");
  });

  test("the invitee cannot raise its own permission", async () => {
    await invite(owner, guest, "view");
    await answer(guest, "accepted");
    const { error } = await guest.db.from("schedule_subscriptions").update({ permission: "invite" }).eq("item_id", itemId).select();
    expect(error?.code).toBe("42501");
  });
});

describe("permissions once accepted", () => {
  async function acceptedAs(permission: "view" | "edit" | "invite") {
    await invite(owner, guest, permission);
    await answer(guest, "accepted");
  }

  const rename = (who: Party) => who.db.from("schedule_items").update({ title: "Renamed" }).eq("id", itemId).select("title");

  test("view: reads, cannot change or delete", async () => {
    await acceptedAs("view");
    expect(await seesItem(guest)).toBe(true);
    expect((await rename(guest)).data).toEqual([]);
    expect((await guest.db.from("schedule_items").delete().eq("id", itemId).select()).data).toEqual([]);
  });

  test("edit: changes content, cannot delete, cannot share", async () => {
    await acceptedAs("edit");
    expect((await rename(guest)).data).toEqual([{ title: "Renamed" }]);
    expect((await guest.db.from("schedule_items").delete().eq("id", itemId).select()).data).toEqual([]);
    expect((await invite(guest, stranger)).error?.code).toBe("42501");
  });

  test("edit never extends to the owner column", async () => {
    await acceptedAs("edit");
    const { error } = await guest.db.from("schedule_items").update({ owner_id: guest.id }).eq("id", itemId);
    expect(error?.code).toBe("42501");
    const rows = await superuser((db) => db.query("select owner_id from schedule_items where id = $1", [itemId]));
    expect(rows.rows[0]?.owner_id).toBe(owner.id);
  });

  test("invite: shares the item onward, and the new invitee goes through the same flow", async () => {
    await acceptedAs("invite");
    const { data, error } = await invite(guest, stranger, "view");
    expect(error).toBeNull();
    expect(data).toMatchObject({ invited_by: guest.id, status: "pending" });
    expect(await seesItem(stranger)).toBe(false);
    await answer(stranger, "accepted");
    expect(await seesItem(stranger)).toBe(true);
  });

  test("the owner changes a granted permission and it takes effect", async () => {
    await acceptedAs("view");
    expect((await rename(guest)).data).toEqual([]);
    const { error } = await owner.db
      .from("schedule_subscriptions")
      .update({ permission: "edit" })
      .eq("item_id", itemId)
      .eq("subscriber_id", guest.id);
    expect(error).toBeNull();
    expect((await rename(guest)).data).toEqual([{ title: "Renamed" }]);
  });

  test("the owner revokes by deleting the subscription", async () => {
    await acceptedAs("view");
    await owner.db.from("schedule_subscriptions").delete().eq("item_id", itemId).eq("subscriber_id", guest.id);
    expect(await seesItem(guest)).toBe(false);
  });

  test("deleting the item removes its subscriptions", async () => {
    await acceptedAs("view");
    await owner.db.from("schedule_items").delete().eq("id", itemId);
    const rows = await superuser((db) => db.query("select count(*)::int as n from schedule_subscriptions where item_id = $1", [itemId]));
    expect(rows.rows[0]?.n).toBe(0);
  });
});
