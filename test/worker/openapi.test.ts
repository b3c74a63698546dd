// The OpenAPI document the Worker serves, held to the app and to docs/http-api.md: every route
// the app answers is documented (with the summary, authentication and deprecation the docs
// table gives), every error code is in the docs and in the document's Error schema, and the
// document is well-formed OpenAPI 3.1 in the basics. Any drift between the three fails here.

import { env } from "cloudflare:workers";
import { describe, expect, test } from "vitest";
import httpApiDoc from "../../docs/http-api.md?raw";
import { createApp } from "../../functions/agent/app.ts";
import { ERROR_CODES } from "../../functions/lib/errors.ts";
import { markdownTable } from "../support/markdown.ts";

interface Operation {
  operationId?: string;
  summary?: string;
  deprecated?: boolean;
  security?: Array<Record<string, string[]>>;
  parameters?: Array<{ in: string; name: string; required?: boolean }>;
  responses?: Record<string, { description?: string }>;
}
interface Document {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
}

/** The two routes that serve the description itself; they are not part of it. */
const SELF = ["/openapi.json", "/docs"];

const app = createApp();
const document = (await (await app.request("/openapi.json", {}, env)).json()) as Document;

/** Every `$ref` in `value` that does not point at something in `root`. */
function danglingRefs(root: unknown): string[] {
  const resolve = (ref: string) =>
    ref
      .slice(2)
      .split("/")
      .map((token) => token.replaceAll("~1", "/").replaceAll("~0", "~"))
      .reduce<unknown>(
        (node, key) => (node !== null && typeof node === "object" ? (node as Record<string, unknown>)[key] : undefined),
        root,
      );
  const dangling: string[] = [];
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const node = pending.pop();
    if (Array.isArray(node)) pending.push(...node);
    else if (node !== null && typeof node === "object") {
      const ref = (node as Record<string, unknown>).$ref;
      if (typeof ref === "string" && (!ref.startsWith("#/") || resolve(ref) === undefined)) dangling.push(ref);
      pending.push(...Object.values(node));
    }
  }
  return dangling;
}

const operations = Object.entries(document.paths).flatMap(([path, item]) =>
  Object.entries(item).map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })),
);
const key = (method: string, path: string) => `${method} ${path}`;

describe("every route, in the app, the document and docs/http-api.md", () => {
  const routeTable = markdownTable(httpApiDoc, "| method | path | summary | auth | deprecated |");

  test("the app's routes are the document's operations", () => {
    // app.routes lists one entry per handler, middleware included (method ALL, from app.use).
    const answered = new Set(
      app.routes
        .filter((route) => route.method !== "ALL" && !SELF.includes(route.path))
        .map((route) => key(route.method, route.path.replace(/:(\w+)/g, "{$1}"))),
    );
    expect(answered.size).toBeGreaterThan(5);
    expect(new Set(operations.map(({ method, path }) => key(method, path)))).toEqual(answered);
  });

  test("the docs table lists every operation, with its summary, authentication and deprecation", () => {
    const documented = operations.map(({ method, path, operation }) => [
      method,
      path,
      operation.summary ?? "(no summary)",
      operation.security?.some((requirement) => "bearer" in requirement) ? "bearer" : "none",
      operation.deprecated ? "yes" : "no",
    ]);
    const sortRows = (rows: string[][]) => [...rows].sort((a, b) => key(a[0]!, a[1]!).localeCompare(key(b[0]!, b[1]!)));
    expect(sortRows(routeTable)).toEqual(sortRows(documented));
  });

  test("the threads path is the documented history path; the older two are deprecated", () => {
    const history = operations.filter(({ path }) => path.endsWith("/history"));
    expect(history.map(({ path, operation }) => [path, operation.deprecated ?? false]).sort()).toEqual([
      ["/api/v1/agent/history", true],
      ["/api/v1/agent/runs/{threadId}/history", true],
      ["/api/v1/agent/threads/{threadId}/history", false],
    ]);
  });
});

describe("every error code, in lib/errors.ts, the document and docs/http-api.md", () => {
  const errorTable = markdownTable(httpApiDoc, "| code | HTTP | when |");
  const codeSchema = (document.components.schemas.Error as { properties: { error: { properties: { code: { enum: string[] } } } } })
    .properties.error.properties.code;

  test("the docs table and the Error schema list exactly ERROR_CODES", () => {
    expect(errorTable.map(([code]) => code).sort()).toEqual([...ERROR_CODES].sort());
    expect([...codeSchema.enum].sort()).toEqual([...ERROR_CODES].sort());
  });

  test("the document gives each code the status the docs table gives it", () => {
    for (const [code, status] of errorTable) {
      const naming = operations.filter(({ operation }) => operation.responses?.[status!]?.description?.includes(code!));
      expect(naming.length, `${code} at ${status}`).toBeGreaterThan(0);
    }
  });
});

describe("the document is OpenAPI 3.1", () => {
  test("it says so, with a title and a version", () => {
    expect(document.openapi).toMatch(/^3\.1\.\d+$/);
    expect(document.info.title).not.toBe("");
    expect(document.info.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  test("every operation has responses, each described, and a unique operationId", () => {
    for (const { method, path, operation } of operations) {
      const responses = Object.entries(operation.responses ?? {});
      expect(responses.length, key(method, path)).toBeGreaterThan(0);
      for (const [status, response] of responses) expect(response.description, `${key(method, path)} ${status}`).toBeTruthy();
    }
    const ids = operations.map(({ operation }) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  test("every path parameter is declared, required; every security scheme exists", () => {
    for (const { method, path, operation } of operations) {
      for (const [, name] of path.matchAll(/\{(\w+)\}/g)) {
        const parameter = operation.parameters?.find((p) => p.in === "path" && p.name === name);
        expect(parameter?.required, `${key(method, path)} {${name}}`).toBe(true);
      }
      for (const requirement of operation.security ?? [])
        for (const scheme of Object.keys(requirement)) expect(document.components.securitySchemes).toHaveProperty(scheme);
    }
  });

  test("every $ref resolves", () => {
    expect(JSON.stringify(document)).toContain('"$ref"');
    expect(danglingRefs(document)).toEqual([]);
  });
});

test("/docs serves a page that reads /openapi.json", async () => {
  const response = await app.request("/docs", {}, env);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toContain("text/html");
  const page = await response.text();
  expect(page).toMatch(/<html/i);
  expect(page).toContain("/openapi.json");
});
