// The local stand-in for Supabase's API gateway: one origin that mounts PostgREST at
// /rest/v1 and publishes the signing keys at /auth/v1/.well-known/jwks.json, so
// supabase-js and JWKS verification work unchanged against http://127.0.0.1:54321.
import { createServer, request, type Server } from "node:http";

export interface GatewayOptions {
  port: number;
  postgrestPort: number;
  jwks: unknown;
}

function sendJson(res: import("node:http").ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
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
