// The chain the runtime uses, inside workerd: app token -> verified user -> minted
// controlled credential -> supabase-js -> PostgREST -> RLS. A seeded user reads exactly
// their own items plus the ones shared with them and accepted.
import { env } from "cloudflare:workers";
import { afterEach, expect, inject, test, vi } from "vitest";
import { loadSettings } from "../../functions/agent/settings.ts";
import { verifyAccessToken } from "../../functions/lib/auth/verify-access-token.ts";
import { createUserDatabase } from "../../functions/lib/user-database.ts";
import { accessTokenClaims, signAccessToken } from "../../supabase/local/auth-tokens.ts";

const stack = inject("localStack");
const ALICE = "11111111-1111-4111-8111-111111111111";
const BOB = "22222222-2222-4222-8222-222222222222";
const JWT_LIKE = /eyJ[\w-]{5,}\.[\w-]{5,}\.[\w-]*/;

afterEach(() => vi.restoreAllMocks());

async function itemsVisibleTo(userId: string) {
  const settings = loadSettings(env);
  if (!settings.ok) throw new Error("test env is misconfigured");
  const token = await signAccessToken(stack.keys, accessTokenClaims(userId));
  const verified = await verifyAccessToken(token, settings.settings.auth);
  if (!verified.ok) throw new Error(verified.reason);
  const db = await createUserDatabase(settings.settings, verified.user.userId);
  const { data, error } = await db.from("schedule_items").select("id, owner_id, title").order("start_at");
  expect(error).toBeNull();
  return data!;
}

test("Alice reads her own items and the accepted share, nothing else", async () => {
  const items = await itemsVisibleTo(ALICE);
  const ids = items.map((item) => item.id);
  expect(ids).toEqual(
    expect.arrayContaining([
      "a0000000-0000-4000-8000-000000000001",
      "a0000000-0000-4000-8000-000000000002",
      "a0000000-0000-4000-8000-000000000003",
      "b0000000-0000-4000-8000-000000000001", // Bob's "Team lunch", shared and accepted
    ]),
  );
  expect(ids).not.toContain("b0000000-0000-4000-8000-000000000002"); // invitation still pending
  for (const item of items.filter((item) => item.owner_id !== ALICE)) expect(item.id).toBe("b0000000-0000-4000-8000-000000000001");
});

test("Bob reads only his own items", async () => {
  const items = await itemsVisibleTo(BOB);
  expect(items.length).toBeGreaterThan(0);
  expect(new Set(items.map((item) => item.owner_id))).toEqual(new Set([BOB]));
});

test("the credential never reaches a log line", async () => {
  const spies = [vi.spyOn(console, "log"), vi.spyOn(console, "warn"), vi.spyOn(console, "error"), vi.spyOn(console, "info")];
  await itemsVisibleTo(ALICE);
  const output = spies.flatMap((spy) => spy.mock.calls.map((args) => args.join(" "))).join("\n");
  expect(output).not.toMatch(JWT_LIKE);
});
