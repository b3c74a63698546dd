// contacts.read and memory.read / memory.update through project_cli.
import { beforeEach, describe, expect, test } from "vitest";
import { type CliCaller, cliAs } from "../../support/project-cli.ts";
import { createUser, superuser } from "../../support/users.ts";

let me: CliCaller;
let other: CliCaller;

beforeEach(async () => {
  [me, other] = await Promise.all([createUser("me").then(cliAs), createUser("other").then(cliAs)]);
  await superuser((db) =>
    db.query(
      `insert into contacts (owner_id, display_name, phone, email) values
         ($1, 'Bob Li', '+15550000002', 'bob@example.com'),
         ($1, 'Dr. Wong', '+15550001234', null),
         ($1, '100% Legit Plumbing', null, 'plumber@example.com'),
         ($2, 'Bob Secret', '+15557777777', null)`,
      [me.userId, other.userId],
    ),
  );
});

describe("contacts.read", () => {
  test("lists the caller's contacts by name, and only theirs", async () => {
    const data = await me.ok("contacts", "read", {});
    expect(data.contacts.map((c: { display_name: string }) => c.display_name)).toEqual(["100% Legit Plumbing", "Bob Li", "Dr. Wong"]);
    expect(data).toMatchObject({ count: 3, truncated: false });
  });

  test("finds by part of a name, case-insensitively, with wildcards taken literally", async () => {
    expect((await me.ok("contacts", "read", { name: "bob" })).contacts).toMatchObject([{ display_name: "Bob Li", phone: "+15550000002" }]);
    expect((await me.ok("contacts", "read", { name: "100%" })).contacts).toMatchObject([{ display_name: "100% Legit Plumbing" }]);
    expect((await me.ok("contacts", "read", { name: "_" })).contacts).toEqual([]);
  });

  test("finds by phone and by e-mail", async () => {
    expect((await me.ok("contacts", "read", { phone: "+15550001234" })).contacts).toMatchObject([{ display_name: "Dr. Wong" }]);
    expect((await me.ok("contacts", "read", { email: "BOB@example.com" })).contacts).toMatchObject([{ display_name: "Bob Li" }]);
    expect((await me.ok("contacts", "read", { phone: "+15557777777" })).contacts).toEqual([]);
  });

  test("one search key at a time, and phones in E.164", async () => {
    expect(await me.fail("contacts", "read", { name: "Bob", phone: "+15550000002" })).toMatchObject({ code: "INVALID_ACTION_INPUT" });
    expect(await me.fail("contacts", "read", { phone: "555-0000" })).toMatchObject({
      details: { invalid_fields: [{ field: "input.phone" }] },
    });
  });
});

describe("memory", () => {
  test("a new user has no documents yet", async () => {
    expect(await me.ok("memory", "read", {})).toEqual({ user_memory: null, work_profile: null });
  });

  test("update merges top-level fields and bumps the version", async () => {
    const first = await me.ok("memory", "update", {
      kind: "user_memory",
      content: { preferred_name: "Al", facts: ["Allergic to peanuts"] },
    });
    expect(first).toMatchObject({ kind: "user_memory", version: 1, mode: "merge" });
    const second = await me.ok("memory", "update", { kind: "user_memory", content: { preferences: ["Morning meetings"] } });
    expect(second).toMatchObject({
      version: 2,
      content: { preferred_name: "Al", facts: ["Allergic to peanuts"], preferences: ["Morning meetings"] },
    });
    const read = await me.ok("memory", "read", { kind: "user_memory" });
    expect(read).toEqual({ user_memory: { content: second.content, version: 2, updated_at: expect.any(String) } });
  });

  test("replace drops the fields it does not carry", async () => {
    await me.ok("memory", "update", { kind: "work_profile", content: { role: "Engineer", team: "Platform" } });
    const replaced = await me.ok("memory", "update", { kind: "work_profile", mode: "replace", content: { role: "Manager" } });
    expect(replaced.content).toEqual({ role: "Manager" });
  });

  test("the document models are strict", async () => {
    const error = await me.fail("memory", "update", {
      kind: "work_profile",
      content: { role: "Engineer", salary: 1, working_hours: { start: "9am", end: "18:00" } },
    });
    expect(error).toMatchObject({
      code: "INVALID_ACTION_INPUT",
      details: { unknown_fields: ["input.content.salary"], invalid_fields: [{ field: "input.content.working_hours.start" }] },
    });
    expect(await me.fail("memory", "update", { kind: "diary", content: {} })).toMatchObject({
      details: { invalid_fields: [{ field: "input.kind" }] },
    });
  });

  test("each user has their own memory", async () => {
    await other.ok("memory", "update", { kind: "user_memory", content: { facts: ["secret"] } });
    expect(await me.ok("memory", "read", {})).toEqual({ user_memory: null, work_profile: null });
  });
});
