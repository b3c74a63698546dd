// A pass-through HTTP proxy in front of the local data plane's gateway that records every call
// a Worker makes to it: which service (PostgREST, the JWKS), method and path, bytes each way,
// and when it arrived and was answered (process.hrtime, the same CLOCK_MONOTONIC the V8
// profiler in workerd stamps its samples with, so the two timelines line up).
// Benchmarks point SUPABASE_URL at it to count round trips; it adds a hop, so latency figures
// are taken without it.
import { createServer, request, type Server } from "node:http";
import { freePort } from "../../../supabase/local/processes.ts";

export type DataPlaneService = "postgrest" | "jwks" | "other";

export interface TappedCall {
  service: DataPlaneService;
  method: string;
  /** Path without the query string (the query is in `query`). */
  path: string;
  query: string;
  requestBytes: number;
  responseBytes: number;
  status: number;
  /** Microseconds on the monotonic clock. */
  arrivedUs: number;
  answeredUs: number;
  /** The request body, kept only while `keepBodies` is on (to build the floor's script). */
  body?: string;
  headers?: Record<string, string>;
}

export interface DataPlaneTap {
  url: string;
  calls: TappedCall[];
  /** Keep request bodies and headers of the next calls (off by default: they cost memory). */
  keepBodies: boolean;
  reset(): void;
  stop(): Promise<void>;
}

const nowUs = () => Number(process.hrtime.bigint() / 1000n);

function serviceOf(path: string): DataPlaneService {
  if (path.startsWith("/rest/v1")) return "postgrest";
  if (path.startsWith("/auth/v1/.well-known/jwks.json")) return "jwks";
  return "other";
}

export async function startDataPlaneTap(upstreamUrl: string): Promise<DataPlaneTap> {
  const upstream = new URL(upstreamUrl);
  const port = await freePort();
  const tap: DataPlaneTap = {
    url: `http://127.0.0.1:${port}`,
    calls: [],
    keepBodies: false,
    reset() {
      tap.calls = [];
    },
    stop: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
  const server: Server = createServer((req, res) => {
    const arrivedUs = nowUs();
    const [path = "/", query = ""] = (req.url ?? "/").split("?", 2);
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const call: TappedCall = {
        service: serviceOf(path),
        method: req.method ?? "GET",
        path,
        query,
        requestBytes: body.length,
        responseBytes: 0,
        status: 0,
        arrivedUs,
        answeredUs: 0,
      };
      if (tap.keepBodies) {
        call.body = body.toString("utf8");
        call.headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      }
      const forward = request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: upstream.host, "content-length": String(body.length) },
        },
        (upstreamRes) => {
          res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.headers);
          upstreamRes.on("data", (chunk: Buffer) => {
            call.responseBytes += chunk.length;
            res.write(chunk);
          });
          upstreamRes.on("end", () => {
            call.status = upstreamRes.statusCode ?? 0;
            call.answeredUs = nowUs();
            tap.calls.push(call);
            res.end();
          });
        },
      );
      forward.on("error", () => {
        if (!res.headersSent) res.writeHead(502).end();
        else res.destroy();
      });
      forward.end(body);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  return tap;
}
