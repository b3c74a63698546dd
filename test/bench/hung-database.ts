// Time to RUN_ERROR when the database does not answer: the agent Worker on `wrangler dev` with
// its own data plane; PostgREST or Postgres hung (SIGSTOP) or Postgres stopped; each run ends
// with DATABASE_UNAVAILABLE, and this prints how long that took (median and max).
// Run: npm run bench:hung-database [-- --runs 5 --timeout-ms 5000]
import { parseArgs } from "node:util";
import { DATA_PLANE_TIMEOUT_MS } from "../../functions/lib/bounded-fetch.ts";
import { hang, resume } from "../support/hang.ts";
import { startWranglerDev } from "../support/wrangler-dev.ts";

const { values } = parseArgs({
  options: { runs: { type: "string", default: "5" }, "timeout-ms": { type: "string", default: String(DATA_PLANE_TIMEOUT_MS) } },
});
const runs = Number(values.runs);
const timeoutMs = values["timeout-ms"];

const dev = await startWranglerDev({ vars: { DATA_PLANE_TIMEOUT_MS: timeoutMs } });
try {
  const token = await dev.token();
  async function once(): Promise<number> {
    const id = crypto.randomUUID();
    const body = {
      threadId: `bench-${id}`,
      runId: `bench-${id}`,
      messages: [{ id, role: "user", content: "today?" }],
      state: {},
      tools: [],
      context: [],
      forwardedProps: { timezone: "UTC" },
    };
    const began = performance.now();
    const response = await fetch(`${dev.url}/api/v1/agent/runs`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "text/event-stream" },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    const ms = performance.now() - began;
    if (!text.includes('"DATABASE_UNAVAILABLE"')) throw new Error(`expected DATABASE_UNAVAILABLE, got: ${text.slice(0, 300)}`);
    return ms;
  }
  const faults = [
    { name: "PostgREST hung (SIGSTOP)", on: () => hang(dev.plane, "postgrest"), off: async () => resume(dev.plane, "postgrest") },
    { name: "Postgres hung (SIGSTOP)", on: () => hang(dev.plane, "postgres"), off: async () => resume(dev.plane, "postgres") },
    { name: "Postgres stopped", on: () => dev.plane.stopPostgres(), off: () => dev.plane.startPostgres() },
  ];
  console.log(`time to RUN_ERROR DATABASE_UNAVAILABLE, DATA_PLANE_TIMEOUT_MS=${timeoutMs}, ${runs} runs each`);
  for (const fault of faults) {
    await fault.on();
    try {
      const times: number[] = [];
      for (let i = 0; i < runs; i++) times.push(await once());
      times.sort((a, b) => a - b);
      console.log(
        `  ${fault.name.padEnd(26)} median ${times[Math.floor(times.length / 2)]!.toFixed(0)} ms, max ${times.at(-1)!.toFixed(0)} ms`,
      );
    } finally {
      await fault.off();
    }
  }
} finally {
  await dev.stop();
}
