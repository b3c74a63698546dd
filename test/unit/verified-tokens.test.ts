import { expect, test } from "vitest";
import { verifiedTokens } from "../../functions/lib/auth/verified-tokens.ts";

const ALICE = { userId: "11111111-1111-4111-8111-111111111111", role: "authenticated" as const };
const BOB = { userId: "22222222-2222-4222-8222-222222222222", role: "authenticated" as const };

/** A cache on a clock the test moves (ms). */
function onClock(options: { maxAgeMs?: number; maxEntries?: number } = {}) {
  const clock = { ms: 1_000_000 };
  return { clock, tokens: verifiedTokens({ ...options, now: () => clock.ms }) };
}

test("a verified token is known until its expiry, and not a moment after", () => {
  const { clock, tokens } = onClock({ maxAgeMs: 60_000 });
  tokens.add("t", ALICE, clock.ms / 1000 + 30);
  expect(tokens.get("t")).toEqual(ALICE);
  clock.ms += 29_999;
  expect(tokens.get("t")).toEqual(ALICE);
  clock.ms += 1;
  expect(tokens.get("t")).toBeUndefined();
});

test("a long-lived token is known for the cache's max age only", () => {
  const { clock, tokens } = onClock({ maxAgeMs: 60_000 });
  tokens.add("t", ALICE, clock.ms / 1000 + 3_600);
  clock.ms += 59_999;
  expect(tokens.get("t")).toEqual(ALICE);
  clock.ms += 1;
  expect(tokens.get("t")).toBeUndefined();
});

test("a token already expired when added is not kept", () => {
  const { clock, tokens } = onClock();
  tokens.add("t", ALICE, clock.ms / 1000);
  expect(tokens.get("t")).toBeUndefined();
});

test("tokens are told apart by their exact text", () => {
  const { clock, tokens } = onClock();
  tokens.add("a.b.c", ALICE, clock.ms / 1000 + 30);
  tokens.add("a.b.d", BOB, clock.ms / 1000 + 30);
  expect(tokens.get("a.b.c")).toEqual(ALICE);
  expect(tokens.get("a.b.d")).toEqual(BOB);
  expect(tokens.get("a.b.")).toBeUndefined();
});

test("when full, the oldest entry goes first; adding a token again makes it the newest", () => {
  const { clock, tokens } = onClock({ maxEntries: 2 });
  const exp = clock.ms / 1000 + 30;
  tokens.add("first", ALICE, exp);
  tokens.add("second", BOB, exp);
  tokens.add("first", ALICE, exp);
  tokens.add("third", BOB, exp);
  expect(tokens.get("second")).toBeUndefined();
  expect(tokens.get("first")).toEqual(ALICE);
  expect(tokens.get("third")).toEqual(BOB);
});
