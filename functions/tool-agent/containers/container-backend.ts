// Where a docker source's container actually runs, behind one small interface:
//   - on Cloudflare, the Durable Object's own container (`ctx.container`, Cloudflare Containers);
//   - without one (wrangler dev, tests: no Docker here), a stand-in process that speaks the
//     same HTTP as the container would, behind a tiny control API (start, state, stop, and a
//     path per port). TOOL_AGENT_CONTAINER_STANDIN_URL names it; it is never used in production.
export interface ContainerBackend {
  readonly kind: "cloudflare" | "standin";
  start(spec: { image: string; internalPort: number; containerId: string }): Promise<void>;
  running(containerId: string): Promise<boolean>;
  stop(containerId: string): Promise<void>;
  /** The request, sent to the container's port. */
  fetch(containerId: string, port: number, request: Request): Promise<Response>;
}

export class NoContainerRuntime extends Error {
  override readonly name = "NoContainerRuntime";
}

/** Cloudflare Containers: the image is the one configured for the Durable Object class. */
export function cloudflareBackend(container: Container): ContainerBackend {
  return {
    kind: "cloudflare",
    async start() {
      if (!container.running) container.start({ enableInternet: false });
    },
    running: async () => container.running,
    async stop() {
      if (container.running) await container.destroy();
    },
    fetch: (_id, port, request) => container.getTcpPort(port).fetch(request),
  };
}

/** The local stand-in's control API, over HTTP with a deadline on every call. */
export function standinBackend(baseUrl: string, timeoutMs: number): ContainerBackend {
  const base = baseUrl.replace(/\/+$/, "");
  const control = async (path: string, init: RequestInit = {}) => {
    const response = await fetch(`${base}${path}`, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    if (!response.ok && response.status !== 404)
      throw new Error(`the container stand-in answered ${response.status} to ${init.method ?? "GET"} ${path}`);
    return response;
  };
  return {
    kind: "standin",
    async start({ image, internalPort, containerId }) {
      const response = await control("/containers", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ container_id: containerId, image, internal_port: internalPort }),
      });
      if (response.status === 404) throw new Error(`the container stand-in has no image ${image}`);
      await response.body?.cancel();
    },
    async running(containerId) {
      const response = await control(`/containers/${encodeURIComponent(containerId)}`);
      if (response.status === 404) return false;
      return ((await response.json()) as { running?: unknown }).running === true;
    },
    async stop(containerId) {
      (await control(`/containers/${encodeURIComponent(containerId)}`, { method: "DELETE" })).body?.cancel();
    },
    fetch(containerId, port, request) {
      const url = new URL(request.url);
      return fetch(new Request(`${base}/containers/${encodeURIComponent(containerId)}/port/${port}${url.pathname}${url.search}`, request));
    },
  };
}
