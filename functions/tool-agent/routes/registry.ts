// The registry's writes, for admin keys: register (POST /tools), unregister (DELETE /tools/{id})
// and destroy (POST /tools/{id}/destroy).
import { Hono } from "hono";
import { describeRoute } from "hono-openapi";
import { z } from "zod";
import { jsonContent, validated } from "../../lib/openapi.ts";
import { destroyTool, type RegistryStorage, registerTool, unregisterTool } from "../admin/register-tool.ts";
import type { ToolAgentEnv } from "../app-env.ts";
import { requireScope } from "../auth/caller.ts";
import { toolDatabase } from "../database.ts";
import { toolAgentError } from "../errors.ts";
import { API_KEY, AUTH_ERRORS, toolAgentErrors } from "../openapi.ts";
import { RegisterToolRequest } from "../registry/tool-request.ts";
import { importSecretKey } from "../secrets/secret-box.ts";
import { ToolCodeError } from "../sources/loop-guard.ts";
import { ToolIdParam } from "./status.ts";

async function storageOf(c: { var: ToolAgentEnv["Variables"]; env: ToolAgentEnv["Bindings"] }): Promise<RegistryStorage> {
  return {
    db: await toolDatabase(c.var.settings),
    code: c.env.TOOL_CODE,
    timeoutMs: c.var.settings.dataPlane.timeoutMs,
    secretKey: await importSecretKey(c.var.settings.secretKey),
    containers: c.env.TOOL_CONTAINERS,
  };
}

export const registryRoutes = new Hono<ToolAgentEnv>()
  .post(
    "/tools",
    describeRoute({
      summary: "Register a tool, or replace one",
      description:
        "ToolMeta plus its ordered sources. A local source carries its ES module; a remote one its API key, stored encrypted and never shown again. Registering an existing tool_id makes a new version and resets its state to stopped. Needs the admin scope.",
      security: API_KEY,
      responses: {
        201: { description: "registered", content: jsonContent(z.object({ tool_id: z.string(), version: z.number() })) },
        ...toolAgentErrors({
          400: "INVALID_REQUEST: a field is wrong, or a local module does not parse (`line` and `column` say where)",
          409: "CONFLICT: the same tool was registered again meanwhile; retry",
        }),
        ...AUTH_ERRORS,
      },
    }),
    requireScope("admin"),
    validated("json", RegisterToolRequest),
    async (c) => {
      try {
        return c.json(await registerTool(await storageOf(c), c.req.valid("json")), 201);
      } catch (error) {
        if (!(error instanceof ToolCodeError)) throw error;
        return c.json(toolAgentError("INVALID_REQUEST", error.message, { field: "sources", line: error.line, column: error.column }), 400);
      }
    },
  )
  .delete(
    "/tools/:tool_id",
    describeRoute({
      summary: "Unregister a tool",
      description:
        "Removes the tool, its sources and state from the registry; its stored code stays (destroy removes that too). Needs the admin scope.",
      security: API_KEY,
      responses: {
        200: { description: "whether the tool existed", content: jsonContent(z.object({ tool_id: z.string(), removed: z.boolean() })) },
        ...AUTH_ERRORS,
      },
    }),
    requireScope("admin"),
    validated("param", ToolIdParam),
    async (c) => {
      const { tool_id } = c.req.valid("param");
      return c.json({ tool_id, removed: await unregisterTool(await storageOf(c), tool_id) }, 200);
    },
  )
  .post(
    "/tools/:tool_id/destroy",
    describeRoute({
      summary: "Destroy a tool",
      description:
        "Stops it, deletes its stored code (every version), marks its containers destroyed and removes it from the registry; answers what was cleaned. Needs the admin scope.",
      security: API_KEY,
      responses: { 200: { description: "what was cleaned", content: jsonContent(z.record(z.string(), z.unknown())) }, ...AUTH_ERRORS },
    }),
    requireScope("admin"),
    validated("param", ToolIdParam),
    async (c) => c.json(await destroyTool(await storageOf(c), c.req.valid("param").tool_id), 200),
  );
