import { describe, expect, test } from "vitest";
import { formatLogLine } from "../../functions/lib/log.ts";

const JWT = "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiIxMjM0NSJ9.c2lnbmF0dXJlLXNpZ25hdHVyZQ";

describe("formatLogLine", () => {
  test("is one JSON object with level, event and time", () => {
    const line = JSON.parse(formatLogLine("info", "run.started", { run_id: "r1" }));
    expect(line).toMatchObject({ level: "info", event: "run.started", run_id: "r1" });
    expect(Date.parse(line.time)).not.toBeNaN();
  });

  test("drops fields whose names say they hold secrets, at any depth", () => {
    const line = formatLogLine("info", "x", {
      authorization: "Bearer abc",
      nested: { access_token: "abc", credential: "abc", keep: 1 },
      CREDENTIAL_SIGNING_JWK: "{}",
    });
    expect(JSON.parse(line)).toMatchObject({ nested: { keep: 1 } });
    expect(line).not.toContain("abc");
    expect(line).not.toContain("CREDENTIAL_SIGNING_JWK");
  });

  test("masks anything shaped like a JWT inside ordinary text", () => {
    const line = formatLogLine("error", "x", { message: `upstream said: bad token ${JWT}`, list: [JWT] });
    expect(line).not.toContain(JWT);
    expect(line).toContain("[redacted-jwt]");
  });
});
