// A `docker` source: the tool runs in a container and answers HTTP on its internal_port. On
// Cloudflare that is a Container (a Durable Object class with a container image); it needs a
// container runtime this deployment does not configure yet, so a docker source is reported
// unreachable (and a tool's next source is tried). docs/tool-agent.md says what is missing.
import type { SourceRow } from "../tool-types.ts";
import { type SourceOutcome, unreachable } from "./tool-http.ts";

export async function callDocker(source: SourceRow): Promise<SourceOutcome> {
  return unreachable(`docker source (${source.image}) needs a container runtime, and none is configured on this deployment`);
}
