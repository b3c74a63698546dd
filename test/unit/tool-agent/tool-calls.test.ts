import { describe, expect, test } from "vitest";
import { checkAgainstSchema, describeProblems } from "../../../functions/tool-agent/registry/json-schema.ts";
import { paramsOf } from "../../../functions/tool-agent/registry/tool-view.ts";
import { sourceOrder } from "../../../functions/tool-agent/sources/invoke-sources.ts";
import { readToolAnswer, toolRequest } from "../../../functions/tool-agent/sources/tool-http.ts";
import type { SourceRow } from "../../../functions/tool-agent/tool-types.ts";

const schema = {
  type: "object",
  properties: {
    image_path: { type: "string", description: "where" },
    quality: { type: "integer", minimum: 1, maximum: 100 },
    tags: { type: "array", items: { type: "string" } },
  },
  required: ["image_path"],
  additionalProperties: false,
};

describe("params against a schema", () => {
  test("every problem at once, by field", () => {
    expect(checkAgainstSchema(schema, { image_path: "a.png", quality: 50 })).toBeUndefined();
    const problems = checkAgainstSchema(schema, { quality: 200, tags: ["a", 3], extra: 1 })!;
    expect(problems.missing_fields).toEqual(["image_path"]);
    expect(problems.invalid_fields.map((f) => f.field)).toEqual(["quality", "tags[1]"]);
    expect(problems.unknown_fields).toEqual(["extra"]);
    expect(describeProblems(problems)).toMatch(/^missing image_path; quality: .*; tags\[1\]: .*; unknown extra$/);
    expect(checkAgainstSchema(schema, "text")!.invalid_fields[0]!.field).toBe("(body)");
  });

  test("the contract's params list from a schema, hostile shapes included", () => {
    expect(paramsOf(schema)).toEqual({
      params: [
        { name: "image_path", type: "string", description: "where", required: true },
        { name: "quality", type: "integer", description: "", required: false },
        { name: "tags", type: "array", description: "", required: false },
      ],
      required_params: ["image_path"],
    });
    expect(paramsOf({ properties: "nope", required: "x" })).toEqual({ params: [], required_params: [] });
    expect(paramsOf({ properties: { a: { type: ["string", "null"] } }, required: ["a", "ghost", 3] })).toEqual({
      params: [{ name: "a", type: "string|null", description: "", required: true }],
      required_params: ["a"],
    });
  });
});

describe("speaking HTTP to a tool", () => {
  test("GET carries params in the query, POST as JSON", async () => {
    const get = toolRequest("http://t/x", { http_method: "GET" }, { a: "1", b: { c: 2 }, d: null });
    expect(get.url).toBe("http://t/x?a=1&b=%7B%22c%22%3A2%7D");
    const post = toolRequest("http://t/x", { http_method: "POST" }, { a: 1 });
    expect(post.method).toBe("POST");
    expect(await post.json()).toEqual({ a: 1 });
  });

  test("answers: JSON result, refusal, failure, not JSON, too large", async () => {
    expect(await readToolAnswer(Response.json({ ok: 1 }), 1000)).toEqual({ ok: true, result: { ok: 1 } });
    expect(await readToolAnswer(Response.json({ error: { message: "bad input" } }, { status: 422 }), 1000)).toEqual({
      ok: false,
      code: "TOOL_FAILED",
      message: "the tool answered HTTP 422: bad input",
      fallback: false,
      status: 422,
    });
    expect(await readToolAnswer(new Response("down", { status: 503 }), 1000)).toMatchObject({ code: "TOOL_UNAVAILABLE", fallback: true });
    expect(await readToolAnswer(new Response("<html>"), 1000)).toMatchObject({ code: "TOOL_FAILED", fallback: false });
    expect(await readToolAnswer(new Response("x".repeat(2000)), 1000)).toMatchObject({
      code: "TOOL_FAILED",
      message: "the tool answered more than 1000 bytes",
    });
  });

  test("sources are tried from the active one, then by position", () => {
    const sources = [2, 0, 1].map((position) => ({ position, type: "local" }) as SourceRow);
    expect(sourceOrder(sources, 1).map((s) => s.position)).toEqual([1, 0, 2]);
    expect(sourceOrder(sources, 7).map((s) => s.position)).toEqual([0, 1, 2]);
  });
});
