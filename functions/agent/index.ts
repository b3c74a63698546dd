// Worker entry for the chat agent: the Hono app, and the Durable Object that keeps each run's
// event stream.
import { createApp } from "./app.ts";

export type { AgentApp } from "./app.ts";
export { RunHub } from "./run-hub/run-hub.ts";
export default createApp();
