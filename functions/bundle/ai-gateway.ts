// Stand-in for @ai-sdk/gateway in the Worker's bundle (wrangler.toml [alias]). The AI SDK
// imports the gateway as its default provider for models named by a string id; the agent always
// passes model objects (functions/agent/runtime/models.ts), so the gateway never runs. What the
// SDK calls unconditionally answers as the real package would when no gateway is in play:
// no error is a gateway error. Anything that would use the gateway throws NotBundledError.
import { NotBundledError } from "./not-bundled.ts";

const neverThisError = { isInstance: (_error: unknown) => false };

export class GatewayError extends Error {
  static isInstance = neverThisError.isInstance;
}
export class GatewayAuthenticationError extends GatewayError {
  static override isInstance = neverThisError.isInstance;
}

export function createGateway(): never {
  throw new NotBundledError("@ai-sdk/gateway (a model given by a string id)");
}

/** A provider whose every call and model lookup refuses: reached only for string model ids. */
export const gateway = new Proxy(() => createGateway(), { get: () => createGateway });
