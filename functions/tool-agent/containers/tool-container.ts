// One container per docker-sourced tool, as a Durable Object (the shape Cloudflare Containers
// takes: the object owns its container). It remembers which container it started, for which
// image and port, so start is idempotent, state survives the Worker, and stop really stops it.
// The Worker calls it over RPC (sources/docker-source.ts) and keeps ContainerInfo rows itself.
import { DurableObject } from "cloudflare:workers";
import { type ContainerBackend, cloudflareBackend, NoContainerRuntime, standinBackend } from "./container-backend.ts";

export interface ContainerSpec {
  toolId: string;
  image: string;
  internalPort: number;
}

export interface ContainerState {
  container_id: string | null;
  image: string | null;
  internal_port: number | null;
  running: boolean;
  started_at: string | null;
  /** Where it runs: Cloudflare's container, the local stand-in, or nowhere. */
  runtime: "cloudflare" | "standin" | "none";
}

interface Remembered {
  containerId: string;
  image: string;
  internalPort: number;
  startedAt: string;
}

interface ContainerBindings {
  TOOL_AGENT_CONTAINER_STANDIN_URL?: string;
}

const KEY = "container";
const CONTROL_TIMEOUT_MS = 10_000;

export class ToolContainer extends DurableObject<ContainerBindings> {
  private backend(): ContainerBackend | undefined {
    if (this.ctx.container) return cloudflareBackend(this.ctx.container);
    const standin = this.env.TOOL_AGENT_CONTAINER_STANDIN_URL;
    return typeof standin === "string" && standin ? standinBackend(standin, CONTROL_TIMEOUT_MS) : undefined;
  }

  private required(): ContainerBackend {
    const backend = this.backend();
    if (!backend)
      throw new NoContainerRuntime("no container runtime is configured on this deployment (Cloudflare Containers, or a stand-in locally)");
    return backend;
  }

  async status(): Promise<ContainerState> {
    const remembered = await this.ctx.storage.get<Remembered>(KEY);
    const backend = this.backend();
    const running = remembered && backend ? await backend.running(remembered.containerId) : false;
    return {
      container_id: remembered?.containerId ?? null,
      image: remembered?.image ?? null,
      internal_port: remembered?.internalPort ?? null,
      running,
      started_at: running ? (remembered?.startedAt ?? null) : null,
      runtime: backend?.kind ?? "none",
    };
  }

  /** Starts the container unless it already runs with this image and port; answers whether it started now. */
  async ensureStarted(spec: ContainerSpec): Promise<{ state: ContainerState; started: boolean }> {
    const backend = this.required();
    const remembered = await this.ctx.storage.get<Remembered>(KEY);
    if (
      remembered &&
      remembered.image === spec.image &&
      remembered.internalPort === spec.internalPort &&
      (await backend.running(remembered.containerId))
    ) {
      return { state: await this.status(), started: false };
    }
    if (remembered) await backend.stop(remembered.containerId);
    const containerId = `${spec.toolId}-${crypto.randomUUID().slice(0, 12)}`;
    await backend.start({ image: spec.image, internalPort: spec.internalPort, containerId });
    await this.ctx.storage.put<Remembered>(KEY, {
      containerId,
      image: spec.image,
      internalPort: spec.internalPort,
      startedAt: new Date().toISOString(),
    });
    return { state: await this.status(), started: true };
  }

  /** Stops the container; answers the id it stopped, if any. */
  async stop(): Promise<string | null> {
    const remembered = await this.ctx.storage.get<Remembered>(KEY);
    if (!remembered) return null;
    await this.backend()?.stop(remembered.containerId);
    await this.ctx.storage.delete(KEY);
    return remembered.containerId;
  }

  /** The request, sent to the running container's internal port. */
  async forward(request: Request): Promise<Response> {
    const remembered = await this.ctx.storage.get<Remembered>(KEY);
    if (!remembered) throw new NoContainerRuntime("the container is not started");
    return this.required().fetch(remembered.containerId, remembered.internalPort, request);
  }
}
