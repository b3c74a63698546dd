// What the real PostgREST accepts: the controlled credential the Worker mints, and nothing
// expired, unsigned, foreign or for another audience.
import { createClient } from "@supabase/supabase-js";
import { describe, expect, inject, test } from "vitest";
import { accessTokenClaims } from "../../supabase/local/auth-tokens.ts";
import { signedWithLegacySecret, signedWithStrangerKey, unsignedToken } from "../support/tokens.ts";
import { credentialFor, SEEDED } from "../support/users.ts";

const stack = inject("localStack");

function readItemsWith(token: string) {
  return createClient(stack.supabaseUrl, stack.anonKey, { accessToken: async () => token })
    .from("schedule_items")
    .select("id, owner_id");
}

describe("PostgREST and the controlled credential", () => {
  test("a fresh ES256 credential is accepted and scoped to its user", async () => {
    const { token } = await credentialFor(SEEDED.alice);
    const { data, error } = await readItemsWith(token);
    expect(error).toBeNull();
    expect(data!.length).toBeGreaterThan(0);
    // Alice's own items plus what was shared with her and accepted; never Bob's others.
    expect(data!.map((row) => row.id)).not.toContain("b0000000-0000-4000-8000-000000000002");
  });

  test("a credential signed with the legacy HS256 secret is accepted too", async () => {
    const token = await signedWithLegacySecret(stack.keys.legacySecret, accessTokenClaims(SEEDED.bob));
    const { data, error } = await readItemsWith(token);
    expect(error).toBeNull();
    expect(new Set(data!.map((row) => row.owner_id))).toEqual(new Set([SEEDED.bob]));
  });

  test("an expired credential is rejected with 401 PGRST301", async () => {
    const tenMinutesAgo = Math.floor(Date.now() / 1000) - 600;
    const { token } = await credentialFor(SEEDED.alice, { now: tenMinutesAgo, ttlSeconds: 300 });
    const { data, error, status } = await readItemsWith(token);
    expect(status).toBe(401);
    expect(error?.code).toBe("PGRST301");
    expect(data).toBeNull();
  });

  test("a credential for another audience is rejected", async () => {
    const { token } = await credentialFor(SEEDED.alice, { audience: "someone-else" });
    const { status, data } = await readItemsWith(token);
    expect(status).toBe(401);
    expect(data).toBeNull();
  });

  test("a token signed by an untrusted key is rejected, even with a trusted kid", async () => {
    for (const kid of ["stranger", stack.keys.credentialPrivateJwk.kid!]) {
      const { status, data } = await readItemsWith(await signedWithStrangerKey(accessTokenClaims(SEEDED.alice), kid));
      expect(status).toBe(401);
      expect(data).toBeNull();
    }
  });

  test("an unsigned (alg: none) token is rejected", async () => {
    const { status, data } = await readItemsWith(unsignedToken(accessTokenClaims(SEEDED.alice)));
    expect(status).toBe(401);
    expect(data).toBeNull();
  });
});
