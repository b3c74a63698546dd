// A minimal Chrome DevTools Protocol client for a Worker on `wrangler dev`, over Node's global
// WebSocket: wrangler's inspector proxy (--inspector-port) accepts one DevTools client and
// wants an Origin header naming localhost.

export interface CdpEvent {
  method: string;
  params: Record<string, unknown>;
}

export interface Cdp {
  send<T = Record<string, unknown>>(method: string, params?: Record<string, unknown>): Promise<T>;
  /** Every event received so far (and on). */
  on(listener: (event: CdpEvent) => void): void;
  close(): void;
}

export async function connectCdp(inspectorPort: number, timeoutMs = 10_000): Promise<Cdp> {
  const ws = new WebSocket(`ws://127.0.0.1:${inspectorPort}/ws`, { headers: { origin: "http://localhost" } } as never);
  const pending = new Map<number, { resolve: (value: never) => void; reject: (error: Error) => void }>();
  const listeners: Array<(event: CdpEvent) => void> = [];
  let nextId = 0;
  ws.addEventListener("message", (message) => {
    const data = JSON.parse(String(message.data)) as {
      id?: number;
      result?: unknown;
      error?: { message: string };
      method?: string;
      params?: never;
    };
    if (data.id !== undefined) {
      const waiter = pending.get(data.id);
      pending.delete(data.id);
      if (data.error) waiter?.reject(new Error(`CDP: ${data.error.message}`));
      else waiter?.resolve(data.result as never);
    } else if (data.method) {
      for (const listener of listeners) listener({ method: data.method, params: data.params ?? {} });
    }
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("the inspector did not accept a connection")), timeoutMs);
    ws.addEventListener("open", () => {
      clearTimeout(timer);
      resolve();
    });
    ws.addEventListener("error", () => {
      clearTimeout(timer);
      reject(new Error("the inspector refused the connection"));
    });
  });
  return {
    send: (method, params = {}) =>
      new Promise((resolve, reject) => {
        const id = ++nextId;
        pending.set(id, { resolve: resolve as (value: never) => void, reject });
        ws.send(JSON.stringify({ id, method, params }));
      }),
    on: (listener) => void listeners.push(listener),
    close: () => ws.close(),
  };
}

/** The V8 CPU profile (Profiler.stop's answer). */
export interface CpuProfile {
  nodes: Array<{
    id: number;
    callFrame: { functionName: string; scriptId: string; url: string; lineNumber: number; columnNumber: number };
    hitCount?: number;
    children?: number[];
    /** Self samples of this node by source line (1-based, of the script). */
    positionTicks?: Array<{ line: number; ticks: number }>;
  }>;
  /** Microseconds on the monotonic clock (CLOCK_MONOTONIC on Linux, like process.hrtime). */
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}
