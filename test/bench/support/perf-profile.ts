// On-CPU samples of a workerd process with Linux `perf` (when installed and permitted): where
// the Worker's process spends CPU below JavaScript, by what the native stack is doing
// (SQLite for Durable Object storage, local tracing, GC, streams, RPC, ...). workerd ships
// with its symbol table, so stacks resolve; JIT-compiled JavaScript shows as unknown frames.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export function perfAvailable(): boolean {
  try {
    execFileSync("perf", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** What the whole stack is inside of: these win over whatever the leaf is doing. */
const CONTEXTS: Array<[string, RegExp]> = [
  ["local tracing (wrangler dev observability, tail streams)", /tracing::|TailStream|StreamingTail|WorkerTracer/],
  [
    "garbage collection",
    /Heap::CollectGarbage|Scavenger|MarkCompact|ConcurrentMarking|cppgc::internal::(Marker|Sweeper|Concurrent)|Heap::Perform|MinorMS|IncrementalMarking/,
  ],
  [
    "V8 compiler (parse, bytecode, JIT)",
    /v8::internal::(Compiler|Parser|Parse|BytecodeGenerator|maglev|compiler::|baseline::|CodeGenerator)/,
  ],
];

/** What the frame nearest the leaf that says anything is doing. */
const LEAF_KINDS: Array<[string, RegExp]> = [
  ["Durable Object storage (SQLite, fsync)", /sqlite3|SqliteDatabase|ActorSqlite|SqlStorage|ActorCache|DurableObjectStorage/],
  [
    "Durable Object RPC + actor plumbing",
    /JsRpc|ActorNamespace|ActorContainer|GlobalActorOutgoingFactory|ActorChannel|capnp::|Worker::Actor/,
  ],
  ["crypto (BoringSSL: ECDSA, SHA)", /ECDSA|ecdsa|ecp_nistz|p256_|EC_POINT|ec_GFp|bn_|BN_|sha256|SHA256|SubtleCrypto|EVP_/],
  ["serialization (structured clone, JSON)", /ValueSerializer|ValueDeserializer|JsonParser|JsonStringifier/],
  [
    "streams (Readable/Writable/Transform)",
    /ReadableStream|WritableStream|TransformStream|ValueQueue|ByteQueue|pipeLoop|ReadableImpl|WritableImpl/,
  ],
  ["HTTP + fetch (kj-http, sockets)", /kj::Http|HttpClient|HttpServer|Fetcher::|fetchImpl|HttpService|AsyncIoStream|tcp_|inet_|sock_/],
  ["JavaScript execution (ours + dependencies; see the V8 profile)", /Builtins_|v8::internal::|v8::Function|v8::Object|jsg::|\[unknown\]/],
];

/** Only when no frame says more. */
const FALLBACKS: Array<[string, RegExp]> = [
  ["memory allocation (tcmalloc, kj heap)", /tcmalloc|malloc|free|operator new|operator delete/],
  ["kernel: disk (ext4, page cache)", /ext4|jbd2|filemap|blk_|generic_perform_write/],
  ["kernel: scheduling and other syscalls", /kallsyms/],
];

/** A perf-script sample (header line, then one line per frame, leaf first) to a category. */
export function categorize(sample: string): string {
  const frames = sample
    .split("\n")
    .slice(1)
    .map((line) => line.trim().replace(/^[0-9a-f]+ /, ""));
  const whole = frames.join("\n");
  const context = CONTEXTS.find(([, pattern]) => pattern.test(whole));
  if (context) return context[0];
  for (const frame of frames) {
    const kind = LEAF_KINDS.find(([, pattern]) => pattern.test(frame));
    if (kind) return kind[0];
  }
  return FALLBACKS.find(([, pattern]) => pattern.test(whole))?.[0] ?? "workerd other (kj event loop, jsg glue)";
}

export interface PerfSession {
  stop(): Promise<Map<string, number>>;
}

/** Starts sampling `pid` (all its threads) until stop(), which answers samples per category. */
export function startPerf(pid: number, frequency = 1999): PerfSession {
  const dir = mkdtempSync(join(tmpdir(), "bench-perf-"));
  const data = join(dir, "perf.data");
  const child: ChildProcess = spawn("perf", ["record", "-F", String(frequency), "-g", "-p", String(pid), "-o", data], { stdio: "ignore" });
  return {
    async stop() {
      child.kill("SIGINT");
      await new Promise((r) => child.once("exit", r));
      const script = execFileSync("perf", ["script", "-i", data, "-F", "tid,ip,sym,dso"], { maxBuffer: 1 << 30, encoding: "utf8" });
      rmSync(dir, { recursive: true, force: true });
      const counts = new Map<string, number>();
      for (const sample of script.split("\n\n")) {
        const text = sample.trim();
        if (text === "") continue;
        const category = categorize(text);
        counts.set(category, (counts.get(category) ?? 0) + 1);
      }
      return counts;
    },
  };
}
