// Who may call. External agents present an API key (`Authorization: Bearer ta_...` or
// `X-API-Key`); the chat agent comes over its service binding (index.ts, ToolAgentForAgent) and
// names the user it acts for. Each route then requires one scope.
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { log } from "../../lib/log.ts";
import type { Caller, Scope, ToolAgentEnv } from "../app-env.ts";
import { toolDatabase } from "../database.ts";
import { toolAgentError } from "../errors.ts";
import { StoreError } from "../registry/tool-store.ts";
import { hasScope, THROTTLED, verifyApiKey } from "./api-keys.ts";

/** How the app finds its caller: by API key (the public entry) or as the bound chat agent. */
export type Authenticate = (c: Context<ToolAgentEnv>) => Promise<Caller | Response>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The chat agent's scopes over its binding: find and run tools, never change the registry. */
export const AGENT_SCOPES: readonly Scope[] = ["search", "invoke"];

export const byApiKey: Authenticate = async (c) => {
  const bearer = /^Bearer\s+(\S+)$/i.exec(c.req.header("authorization") ?? "")?.[1];
  const key = bearer ?? c.req.header("x-api-key");
  if (!key) {
    return c.json(
      toolAgentError("UNAUTHENTICATED", "send an API key: Authorization: Bearer <key> (or X-API-Key)", { reason: "missing" }),
      401,
    );
  }
  try {
    const verified = await verifyApiKey(await toolDatabase(c.var.settings), key);
    if (verified === THROTTLED) {
      c.header("retry-after", "1");
      return c.json(toolAgentError("RATE_LIMITED", "too many unknown API keys at once; retry in a second", { retryable: true }), 429);
    }
    if (!verified) return c.json(toolAgentError("UNAUTHENTICATED", "the API key is unknown or revoked", { reason: "invalid" }), 401);
    return { kind: "api_key", keyId: verified.keyId, scopes: verified.scopes };
  } catch (error) {
    if (!(error instanceof StoreError)) throw error;
    log.error("tool_agent.auth_unavailable", { request_id: c.var.requestId, message: error.message });
    return c.json(toolAgentError("UPSTREAM_UNAVAILABLE", "the API key could not be checked; retry shortly", { retryable: true }), 503);
  }
};

/** Over the service binding only: nothing outside Cloudflare can reach that entrypoint. */
export const asBoundAgent: Authenticate = async (c) => {
  const user = c.req.header("x-acting-user") ?? "";
  if (!UUID.test(user)) {
    return c.json(
      toolAgentError("UNAUTHENTICATED", "the agent must name the user it acts for (x-acting-user: <uuid>)", { reason: "no_user" }),
      401,
    );
  }
  return { kind: "agent", userId: user.toLowerCase(), scopes: AGENT_SCOPES };
};

export const identifyCaller = (authenticate: Authenticate) =>
  createMiddleware<ToolAgentEnv>(async (c, next) => {
    const caller = await authenticate(c);
    if (caller instanceof Response) return caller;
    c.set("caller", caller);
    await next();
  });

export const requireScope = (scope: Scope) =>
  createMiddleware<ToolAgentEnv>(async (c, next) => {
    if (!hasScope(c.var.caller.scopes, scope)) {
      return c.json(
        toolAgentError("FORBIDDEN", `this needs the "${scope}" scope; the key has ${c.var.caller.scopes.join(", ")}`, { needed: scope }),
        403,
      );
    }
    await next();
  });
