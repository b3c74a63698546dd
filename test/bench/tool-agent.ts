// `npm run bench:tool-agent`: what the Tool Agent adds to a tool call, and how fast search is
// with many tools. All on this machine, the real runtime and data plane:
//   1. select_tool of the seeded local unit converter against the same module served directly
//      by a Worker (same runtime, same HTTP hop);
//   2. select_tool of a remote tool against calling the remote server directly;
//   3. POST /search_tools and the SQL function alone with 10,000 registered tools.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { registerSeedTools } from "../../supabase/local/tool-agent-dev.ts";
import { startToolAgentDev } from "../support/tool-agent-dev.ts";
import { percentile, row } from "./support/stats.ts";
import { startBenchWorker } from "./support/wrangler-worker.ts";

const N = Number(process.env.BENCH_CALLS ?? 300);
const WARMUP = 30;

async function timed(n: number, call: () => Promise<Response>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < WARMUP + n; i++) {
    const began = performance.now();
    const response = await call();
    await response.text();
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    if (i >= WARMUP) times.push(performance.now() - began);
  }
  return times;
}

const fmt = (v: number) => `${v.toFixed(2)} ms`;
const WIDTHS = [44, 10, 10, 10];
function report(label: string, times: number[]) {
  console.log(row([label, fmt(percentile(times, 50)), fmt(percentile(times, 95)), fmt(percentile(times, 99))], WIDTHS));
}

const remote = createServer((req, res) => {
  let body = "";
  req.on("data", (c: Buffer) => (body += c));
  req.on("end", () => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ echoed: JSON.parse(body || "{}") }));
  });
});
await new Promise<void>((ok) => remote.listen(0, "127.0.0.1", ok));
const remoteUrl = `http://127.0.0.1:${(remote.address() as AddressInfo).port}`;

const agent = await startToolAgentDev();
const direct = await startBenchWorker({ name: "tool-direct", config: "test/bench/tool-direct/wrangler.toml" });
try {
  await registerSeedTools(agent.url, agent.keys.admin);
  await agent.register({
    tool_id: "bench_remote",
    name: "Bench remote",
    input_schema: { type: "object", properties: { value: { type: "number" } } },
    sources: [{ type: "remote", remote_url: remoteUrl, remote_path: "/echo", remote_api_key: "sk-bench-0123456789abcdef" }],
  });
  const params = { value: 10, from: "km", to: "mi" };
  const json = { "content-type": "application/json" };

  console.log(`\nselect_tool against a direct call (${N} sequential calls each, after ${WARMUP} warm-up)\n`);
  console.log(row(["", "p50", "p95", "p99"], WIDTHS));
  const directLocal = await timed(N, () => fetch(`${direct.url}/`, { method: "POST", headers: json, body: JSON.stringify(params) }));
  const viaLocal = await timed(
    N,
    () => agent.call("/select_tool", { body: { tool_id: "unit_convert", params }, key: agent.keys.invoke }) as Promise<Response>,
  );
  const directRemote = await timed(N, () =>
    fetch(`${remoteUrl}/echo`, { method: "POST", headers: json, body: JSON.stringify({ value: 1 }) }),
  );
  const viaRemote = await timed(
    N,
    () =>
      agent.call("/select_tool", { body: { tool_id: "bench_remote", params: { value: 1 } }, key: agent.keys.invoke }) as Promise<Response>,
  );
  report("local: the module as its own Worker", directLocal);
  report("local: select_tool (sandbox)", viaLocal);
  report("remote: the server directly", directRemote);
  report("remote: select_tool", viaRemote);
  const overhead = (via: number[], base: number[]) => percentile(via, 50) - percentile(base, 50);
  console.log(
    `\nselect_tool overhead at p50: local +${fmt(overhead(viaLocal, directLocal))}, remote +${fmt(overhead(viaRemote, directRemote))}`,
  );
  console.log("(one API-key check, cached; one registry read; the route-state write; JSON Schema checks of params and result)");

  // 10,000 more tools, with words that overlap the queries.
  const TOOLS = 10_000;
  await agent.sql(`
    insert into tool_agent.tools (tool_id, name, category, description, input_schema)
    select 'gen_' || lpad(i::text, 5, '0'),
           (array['Image','Text','Audio','Video','Data','Math','Geo','Mail'])[1 + i % 8] || ' ' ||
           (array['resizer','summarizer','converter','validator','scraper','indexer','tagger','merger'])[1 + (i / 8) % 8] || ' ' || i,
           (array['cv','text','audio','video','data','math','geo','mail'])[1 + i % 8],
           'Generated tool number ' || i || ' that ' || (array['resizes images','summarizes text','converts units','validates json','scrapes pages','indexes files','tags photos','merges pdfs'])[1 + (i / 8) % 8]
             || ' ' || (array['图片处理','文本摘要','单位换算','数据校验','网页抓取','文件索引','照片标注','合并文档'])[1 + (i / 8) % 8],
           jsonb_build_object('type', 'object', 'properties', jsonb_build_object('input_' || (i % 50), jsonb_build_object('type', 'string')))
    from generate_series(1, ${TOOLS}) as i`);
  await agent.sql("analyze tool_agent.tools");
  const queries = ["convert", "单位", "convertr", "gen_05000", "Image resizer 17", "input_42", "validates json", "nothing-matches-this"];
  const SEARCHES = Number(process.env.BENCH_SEARCHES ?? 50);
  console.log(`\nsearch with ${TOOLS + 4} tools (${SEARCHES} searches per query, limit 20)\n`);
  console.log(row(["query", "p50", "p95", "p99"], WIDTHS));
  const all: number[] = [];
  for (const keyword of queries) {
    const times = await timed(
      SEARCHES,
      () => agent.call("/search_tools", { body: { keyword }, key: agent.keys.search }) as Promise<Response>,
    );
    all.push(...times);
    report(`POST /search_tools "${keyword}"`, times);
  }
  report("all queries (HTTP, end to end)", all);
  const sqlTimes: number[] = [];
  for (const keyword of queries) {
    const [plan] = await agent.sql<{ "QUERY PLAN": unknown }>(
      "explain (analyze, format json) select * from tool_agent.search_tools($1, null, false, 20)",
      [keyword],
    );
    sqlTimes.push((plan!["QUERY PLAN"] as { "Execution Time": number }[])[0]!["Execution Time"]);
  }
  console.log(
    `SQL function alone (EXPLAIN ANALYZE, one run per query): p50 ${fmt(percentile(sqlTimes, 50))}, max ${fmt(Math.max(...sqlTimes))}`,
  );
} finally {
  await direct.stop();
  await agent.dev.stop();
  remote.close();
}
