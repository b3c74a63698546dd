// Payload keys are derived from ids, so they must never let one id reach another's key: one
// owner prefix, one key segment per id, distinct ids to distinct keys, nothing that cannot be a key.
import { describe, expect, test } from "vitest";
import { ownerPrefix, payloadPath } from "../../../functions/agent/persistence/payload-store.ts";

const owner = "11111111-1111-4111-8111-111111111111";
const message = "aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa";

describe("payloadPath", () => {
  test("stays under the owner's prefix whatever the run and tool call ids contain", () => {
    for (const id of ["../22222222-2222-4222-8222-222222222222", "a/b", "%2F", "..", "x?y#z", "名前"]) {
      const path = payloadPath(owner, id, id, message)!;
      expect(path.startsWith(ownerPrefix(owner))).toBe(true);
      expect(path.slice(ownerPrefix(owner).length).split("/")).toHaveLength(3);
    }
  });

  test("distinct ids give distinct keys (no two ids share a key)", () => {
    const keys = ["a/b", "a_b", "a%2Fb", "a b", "a+b"].map((id) => payloadPath(owner, id, "c", message));
    expect(new Set(keys).size).toBe(keys.length);
  });

  test("refuses what cannot be part of a key", () => {
    expect(payloadPath("not-a-user", "r", "c", message)).toBeUndefined();
    expect(payloadPath(owner, "r", "c", "../x")).toBeUndefined();
    expect(payloadPath(owner, "", "c", message)).toBeUndefined();
    expect(payloadPath(owner, "r\uD800", "c", message)).toBeUndefined();
    expect(payloadPath(owner, "名".repeat(128), "c".repeat(500), message)).toBeUndefined();
  });
});
