// The Tool Agent as an MCP server (Streamable HTTP, stateless: every request gets a fresh server
// and transport, so any isolate can answer any request). Active tools are its MCP tools, with
// their input schemas; a call goes through the same select_tool path as POST /select_tool:
// params checked, budget and approval, fallback, result checked, keys masked.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { CallToolRequestSchema, type CallToolResult, ListToolsRequestSchema, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker-provider.js";
import { version } from "../../../package.json";
import { hasScope } from "../auth/api-keys.ts";
import type { CallContext } from "../calls/call-context.ts";
import { answerOrStoreFailure, type SelectAnswer } from "../calls/select-answer.ts";
import { selectTool } from "../calls/select-tool.ts";
import { listTools } from "../registry/tool-store.ts";
import type { StoredTool } from "../tool-types.ts";

const isObjectSchema = (schema: unknown): schema is Tool["inputSchema"] =>
  typeof schema === "object" && schema !== null && !Array.isArray(schema) && (schema as { type?: unknown }).type === "object";

/** A registered tool as an MCP tool. MCP requires object schemas; others read as "any object". */
export function mcpTool({ tool }: StoredTool): Tool {
  return {
    name: tool.tool_id,
    title: tool.name,
    description: tool.description || tool.name,
    inputSchema: isObjectSchema(tool.input_schema) ? tool.input_schema : { type: "object" },
    ...(isObjectSchema(tool.output_schema) ? { outputSchema: tool.output_schema } : {}),
  };
}

/** select_tool's answer as an MCP tool result. Anything but success is an error result. */
export function mcpResult(answer: SelectAnswer): CallToolResult {
  const { body } = answer;
  if (body.status === "success") {
    const structured = body.result !== null && typeof body.result === "object" && !Array.isArray(body.result);
    return {
      content: [{ type: "text", text: JSON.stringify(body.result) }],
      ...(structured ? { structuredContent: body.result as Record<string, unknown> } : {}),
    };
  }
  const detail =
    body.status === "approval_required"
      ? { code: "APPROVAL_REQUIRED", message: "an admin must approve this call first", approval: body.approval }
      : body.error;
  return { isError: true, content: [{ type: "text", text: JSON.stringify(detail) }] };
}

function mcpServer(ctx: CallContext): Server {
  const server = new Server(
    { name: "edge-tool-agent", version },
    { capabilities: { tools: {} }, jsonSchemaValidator: new CfWorkerJsonSchemaValidator() },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: (await listTools(ctx.db, { activeOnly: true })).map(mcpTool) }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    if (!hasScope(ctx.caller.scopes, "invoke")) {
      return {
        isError: true,
        content: [{ type: "text", text: JSON.stringify({ code: "FORBIDDEN", message: 'calling a tool needs the "invoke" scope' }) }],
      };
    }
    return mcpResult(await answerOrStoreFailure(() => selectTool(ctx, request.params.name, request.params.arguments ?? {})));
  });
  return server;
}

/** Answers one MCP HTTP request. */
export async function handleMcp(ctx: CallContext, request: Request): Promise<Response> {
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  const server = mcpServer(ctx);
  await server.connect(transport);
  try {
    return await transport.handleRequest(request);
  } finally {
    await server.close();
  }
}
