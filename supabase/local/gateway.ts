// The local stand-in for Supabase's API gateway: one origin that mounts PostgREST at
// /rest/v1, publishes the signing keys at /auth/v1/.well-known/jwks.json and signs in the seeded
// users at /auth/v1/token (password-sign-in.ts), so supabase-js, JWKS verification and a
// browser's sign-in work unchanged against http://127.0.0.1:54321.
import { createServer, type IncomingMessage, request, type Server } from "node:http";
import type { LocalKeys } from "./keys.ts";
import { passwordSignIn } from "./password-sign-in.ts";

export interface GatewayOptions {
  port: number;
  postgrestPort: number;
  jwks: unknown;
  /** Signs the seeded users' sessions; without it /auth/v1/token is not mounted. */
  keys?: Pick<LocalKeys, "authPrivateJwk">;
}

// The playground (another origin: the Worker's) signs in from the browser. Local only.
const SIGN_IN_CORS = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "POST, OPTIONS",
  "access-control-allow-headers": "content-type, apikey, authorization",
  "access-control-max-age": "600",
};
const MAX_SIGN_IN_BYTES = 16 * 1024;

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_SIGN_IN_BYTES) return undefined;
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    return undefined;
  }
}

function sendJson(res: import("node:http").ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

export async function startGateway(options: GatewayOptions): Promise<{ server: Server; stop(): Promise<void> }> {
  const jwksBody = JSON.stringify(options.jwks);
  const server = createServer((req, res) => {
    const url = req.url ?? "/";
    if (url === "/auth/v1/.well-known/jwks.json") {
      res.writeHead(200, { "content-type": "application/json", "cache-control": "public, max-age=600" });
      res.end(jwksBody);
      return;
    }
    if (options.keys && url.split("?")[0] === "/auth/v1/token") {
      const keys = options.keys;
      if (req.method === "OPTIONS") {
        res.writeHead(204, SIGN_IN_CORS);
        res.end();
        return;
      }
      const grant = new URL(url, "http://gateway").searchParams.get("grant_type");
      if (req.method !== "POST" || grant !== "password") {
        sendJson(
          res,
          400,
          { error: "unsupported_grant_type", error_description: "only grant_type=password is served locally" },
          SIGN_IN_CORS,
        );
        return;
      }
      readJson(req)
        .then((body) => passwordSignIn(keys, body))
        .then((answer) => sendJson(res, answer.status, answer.body, SIGN_IN_CORS))
        .catch(() => sendJson(res, 500, { error: "server_error", error_description: "sign-in failed" }, SIGN_IN_CORS));
      return;
    }
    if (url.startsWith("/rest/v1/") || url === "/rest/v1") {
      const upstream = request(
        {
          host: "127.0.0.1",
          port: options.postgrestPort,
          method: req.method,
          path: url.slice("/rest/v1".length) || "/",
          headers: { ...req.headers, host: `127.0.0.1:${options.postgrestPort}` },
        },
        (upstreamRes) => {
          res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.headers);
          upstreamRes.pipe(res);
        },
      );
      upstream.on("error", () => {
        if (!res.headersSent) sendJson(res, 503, { code: "UPSTREAM_UNAVAILABLE", message: "PostgREST is not reachable" });
        else res.destroy();
      });
      req.pipe(upstream);
      return;
    }
    sendJson(res, 404, { code: "NOT_FOUND", message: `nothing is mounted at ${url.split("?")[0]}` });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, "127.0.0.1", () => resolve());
  });
  return {
    server,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
