// A stand-in for containers where Docker cannot run: a process that serves what a container
// image would serve, behind the control API the Tool Agent's stand-in backend speaks
// (functions/tool-agent/containers/container-backend.ts):
//   POST   /containers {container_id, image, internal_port}   start (404: unknown image)
//   GET    /containers/{id}                                   {running}
//   DELETE /containers/{id}                                   stop
//   *      /containers/{id}/port/{port}/<path>                the container's HTTP on that port
// Images are handlers the test defines; each one sees only requests to its internal port.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type ImageHandler = (request: { method: string; path: string; body: string; containerId: string }) => {
  status?: number;
  json: unknown;
};

export interface ContainerStandin {
  url: string;
  /** Containers that run now, by id. */
  running: Map<string, { image: string; internalPort: number }>;
  started: string[];
  /** Ends a container as a crash would. */
  crash(containerId: string): void;
  close(): Promise<void>;
}

export async function startContainerStandin(images: Record<string, ImageHandler>): Promise<ContainerStandin> {
  const running = new Map<string, { image: string; internalPort: number }>();
  const started: string[] = [];
  const send = (res: ServerResponse, status: number, body?: unknown) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(body === undefined ? "" : JSON.stringify(body));
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://standin");
      const parts = url.pathname.split("/").filter(Boolean).map(decodeURIComponent);
      if (parts[0] !== "containers") return send(res, 404, { error: "no such route" });
      if (parts.length === 1 && req.method === "POST") {
        const spec = JSON.parse(body) as { container_id: string; image: string; internal_port: number };
        if (!images[spec.image]) return send(res, 404, { error: `no image ${spec.image}` });
        running.set(spec.container_id, { image: spec.image, internalPort: spec.internal_port });
        started.push(spec.container_id);
        return send(res, 201, { container_id: spec.container_id });
      }
      const id = parts[1]!;
      const container = running.get(id);
      if (parts.length === 2 && req.method === "GET")
        return container ? send(res, 200, { running: true }) : send(res, 404, { running: false });
      if (parts.length === 2 && req.method === "DELETE") {
        running.delete(id);
        return send(res, 204);
      }
      if (parts[2] === "port" && container) {
        // Only the port the image listens on answers, as with a real container.
        if (Number(parts[3]) !== container.internalPort) return send(res, 502, { error: "connection refused" });
        const answer = images[container.image]!({
          method: req.method ?? "GET",
          path: `/${parts.slice(4).join("/")}`,
          body,
          containerId: id,
        });
        return send(res, answer.status ?? 200, answer.json);
      }
      send(res, 502, { error: "the container is not running" });
    });
  });
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    running,
    started,
    crash: (containerId) => running.delete(containerId),
    close: () => new Promise((closed) => server.close(() => closed())),
  };
}
