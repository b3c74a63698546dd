// Which failures a later call of the same action supersedes (no card), and which stand.
import { describe, expect, test } from "vitest";
import { type ActionCall, supersededFailures } from "../../../functions/agent/post-processing/superseded-failures.ts";

const call = (messageId: string, action: string | undefined, failed: boolean): ActionCall => ({ messageId, action, failed });

describe("supersededFailures", () => {
  test("a failure the model corrects with the same action is superseded", () => {
    expect(supersededFailures([call("a", "calendar.create", true), call("b", "calendar.create", false)])).toEqual(new Set(["a"]));
  });

  test("repeated failures of one action: only the last stands", () => {
    const calls = [call("a", "calendar.update", true), call("b", "calendar.update", true)];
    expect(supersededFailures(calls)).toEqual(new Set(["a"]));
  });

  test("a failure after a success of the same action stands (a second event that could not be created)", () => {
    const calls = [call("a", "calendar.create", false), call("b", "calendar.create", true)];
    expect(supersededFailures(calls)).toEqual(new Set());
  });

  test("another action afterwards does not supersede; calls that name no action never do", () => {
    const calls = [
      call("a", "calendar.update", true),
      call("b", "calendar.read", false),
      call("c", undefined, true),
      call("d", undefined, false),
    ];
    expect(supersededFailures(calls)).toEqual(new Set());
  });
});
