import { expect, test } from "vitest";
import { bearerToken } from "../../functions/lib/auth/verify-access-token.ts";

test.each([
  ["Bearer abc.def.ghi", "abc.def.ghi"],
  ["bearer abc.def.ghi", "abc.def.ghi"],
  ["Bearer   abc.def.ghi  ", "abc.def.ghi"],
  ["Basic dXNlcjpwYXNz", undefined],
  ["Bearer", undefined],
  ["Bearer a b", undefined],
  ["", undefined],
  [undefined, undefined],
])("bearerToken(%j) = %j", (header, token) => {
  expect(bearerToken(header)).toBe(token);
});
