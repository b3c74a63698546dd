// A local HTTP server a test starts to stand in for a remote tool API: it records every request
// (method, path, headers, body) and answers what the test's handler says.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  body: string;
}

export interface EchoServer {
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export type Handler = (request: RecordedRequest) => { status?: number; json?: unknown; text?: string; delayMs?: number };

export async function startEchoServer(handler: Handler): Promise<EchoServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      const recorded = { method: req.method ?? "", path: req.url ?? "", headers: req.headers, body };
      requests.push(recorded);
      const answer = handler(recorded);
      const send = () => {
        res.writeHead(answer.status ?? 200, { "content-type": answer.json === undefined ? "text/plain" : "application/json" });
        res.end(answer.json === undefined ? (answer.text ?? "") : JSON.stringify(answer.json));
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs);
      else send();
    });
  });
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise((closed) => server.close(() => closed())),
  };
}
