// The database share of the project_cli fuzzing: generated calls, hostile strings and keys
// included, run as a fresh user against the real database. project_cli always answers with
// a well-formed result and never throws or answers INTERNAL; and nothing of other users'
// data changes, whatever the calls did (two bystanders, one of whom shares an event with the
// fuzzing user, are snapshotted before and after).
import fc from "fast-check";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { CliContext } from "../../../functions/project_cli/context.ts";
import { MODULES } from "../../../functions/project_cli/registry.ts";
import type { CliResult } from "../../../functions/project_cli/result.ts";
import { runProjectCli } from "../../../functions/project_cli/router.ts";
import { contractProblem, envelopes, inputsFor } from "../../support/project-cli-fuzz.ts";
import { clientAs, createUser, superuser } from "../../support/users.ts";

let ctx: CliContext;
let fuzzer: string;
let bystanders: string[];
let ids: string[];
let before: string;
const stats = { runs: 0, ok: 0, codes: {} as Record<string, number> };

/** Every row of the bystanders' data, except the subscription rows the fuzzing user may answer. */
async function bystanderSnapshot(): Promise<string> {
  return superuser(async (db) => {
    const tables = ["schedule_items", "contacts", "user_memory", "threads", "runs", "messages"];
    const parts: unknown[] = [];
    for (const table of tables) {
      const rows = await db.query(
        `select md5(row_to_json(t)::text) as h from public.${table} t where owner_id = any($1::uuid[]) order by 1`,
        [bystanders],
      );
      parts.push([table, rows.rows.map((row) => row.h)]);
    }
    const subscriptions = await db.query(
      `select md5(row_to_json(s)::text) as h from public.schedule_subscriptions s join public.schedule_items i on i.id = s.item_id
       where i.owner_id = any($1::uuid[]) and s.subscriber_id <> $2 order by 1`,
      [bystanders, fuzzer],
    );
    parts.push(["schedule_subscriptions", subscriptions.rows.map((row) => row.h)]);
    return JSON.stringify(parts);
  });
}

beforeAll(async () => {
  [fuzzer, ...bystanders] = await Promise.all([createUser("fuzz"), createUser("bystander-a"), createUser("bystander-b")]);
  ctx = { db: await clientAs(fuzzer), userId: fuzzer };
  const [a, b] = await Promise.all(bystanders.map(async (userId) => ({ userId, ctx: { db: await clientAs(userId), userId } })));
  const event = async (owner: { ctx: CliContext }, title: string) => {
    const created = await runProjectCli(
      {
        module: "calendar",
        method: "create",
        input: { title, start_at: "2026-04-23T10:00:00Z", end_at: "2026-04-23T11:00:00Z", timezone: "UTC" },
      },
      owner.ctx,
    );
    if (!created.ok) throw new Error(JSON.stringify(created));
    return (created.data as { event: { id: string } }).event.id;
  };
  const shared = await event(a!, "Shared with the fuzzer (view)");
  const privateEvent = await event(b!, "Private to bystander B");
  // A view share: the fuzzer sees this event and may answer the invitation (its own
  // subscription row), but must never change the event itself.
  const share = await runProjectCli(
    { module: "calendar", method: "share", input: { event_id: shared, invitee: { user_id: fuzzer }, permissions: { view: true } } },
    a!.ctx,
  );
  if (!share.ok) throw new Error(JSON.stringify(share));
  await runProjectCli({ module: "memory", method: "update", input: { kind: "user_memory", content: { preferred_name: "B" } } }, b!.ctx);
  const own = await event({ ctx }, "Fuzz target");
  ids = [own, shared, privateEvent, fuzzer, ...bystanders];
  before = await bystanderSnapshot();
});

afterAll(async () => {
  if (before === undefined) return;
  expect(await bystanderSnapshot(), "the bystanders' rows changed").toBe(before);
});

async function check(call: unknown): Promise<void> {
  let result: CliResult;
  try {
    result = await runProjectCli(call, ctx);
  } catch (error) {
    throw new Error(`threw for ${JSON.stringify(call)?.slice(0, 300)}: ${error}`);
  }
  stats.runs++;
  if (result.ok) stats.ok++;
  else stats.codes[result.error.code] = (stats.codes[result.error.code] ?? 0) + 1;
  const problem = contractProblem(result);
  if (problem) throw new Error(`${problem}: ${JSON.stringify({ call, result }).slice(0, 600)}`);
}

test("envelopes of any shape: 600 calls", async () => {
  await fc.assert(fc.asyncProperty(envelopes(), check), { numRuns: 600 });
});

for (const [module, spec] of Object.entries(MODULES)) {
  for (const [method, definition] of Object.entries(spec.methods)) {
    test(`${module}.${method}: 150 generated inputs around its schema`, async () => {
      await fc.assert(
        fc.asyncProperty(inputsFor(definition.example as object, definition.input, ids), (input) => check({ module, method, input })),
        { numRuns: 150 },
      );
    });
  }
}

test("summary, and the bystanders' data is unchanged", async () => {
  console.log(`project_cli database fuzz: ${stats.runs} calls, ${stats.ok} succeeded, errors by code ${JSON.stringify(stats.codes)}`);
  expect(stats.runs).toBeGreaterThanOrEqual(2_000);
  expect(stats.ok).toBeGreaterThan(0);
  expect(await bystanderSnapshot()).toBe(before);
});
