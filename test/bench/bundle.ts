// What the agent Worker's bundle is made of, and what leaving out the parts it never runs would
// save. Builds with `wrangler deploy --dry-run --outdir <tmp> --metafile` (the production build:
// minified, as wrangler.toml says), reads esbuild's metafile (bytes each input contributes to
// the output) and gzips the output (Node's zlib, default level, as wrangler reports it).
// Each candidate is measured by building again with the package aliased to an empty module
// (`--alias`): the exact bytes it costs, raw and gzip. A stand-in that keeps the Worker working
// (a 1-line SSE writer, constructor stubs) costs a little back; see docs/performance.md.
// Run: npm run bench:bundle
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { childEnv } from "../../supabase/local/processes.ts";
import { kib, row } from "./support/stats.ts";
import { repoRoot } from "./support/wrangler-worker.ts";

interface Metafile {
  inputs: Record<string, { bytes: number }>;
  outputs: Record<string, { bytes: number; inputs: Record<string, { bytesInOutput: number }> }>;
}

interface Build {
  raw: number;
  gzip: number;
  meta: Metafile;
}

const work = mkdtempSync(join(tmpdir(), "bench-bundle-"));
const stub = join(work, "empty.cjs");
// CommonJS, so every named import of it builds (and is undefined): enough to weigh a package.
writeFileSync(stub, "module.exports = {};\n");

function build(aliases: string[] = []): Build {
  const out = join(work, `out-${aliases.length}-${Math.random().toString(36).slice(2, 8)}`);
  execFileSync(
    process.execPath,
    [
      join(repoRoot, "node_modules/wrangler/bin/wrangler.js"),
      "deploy",
      "--dry-run",
      "--outdir",
      out,
      "--metafile",
      join(out, "meta.json"),
      ...aliases.flatMap((name) => ["--alias", `${name}:${stub}`]),
    ],
    { cwd: repoRoot, stdio: "ignore", env: childEnv({ ...process.env, WRANGLER_SEND_METRICS: "false" }) },
  );
  const code = readFileSync(join(out, "index.js"));
  return { raw: code.length, gzip: gzipSync(code).length, meta: JSON.parse(readFileSync(join(out, "meta.json"), "utf8")) as Metafile };
}

/** Who an input belongs to: an npm package, a part of zod, or a part of our code. */
function ownerOf(path: string): string {
  if (/node_modules\/zod\/v4\/locales\//.test(path) && !/locales\/(en|index)\.js$/.test(path)) return "zod (locales other than en)";
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path)?.[1];
  if (pkg) return pkg;
  if (path.endsWith("skills/bundle.generated.ts")) return "functions/agent/skills (the skill docs, bundled)";
  const ours = /^(functions\/[^/]+)/.exec(path)?.[1];
  if (ours) return `${ours} (ours)`;
  return path.includes(".wrangler") || path.includes("wrangler/templates") ? "wrangler shims" : path;
}

function byOwner(meta: Metafile): Array<{ owner: string; inBytes: number; outBytes: number }> {
  const output = Object.values(meta.outputs).find((o) => Object.keys(o.inputs).length > 0)!;
  const owners = new Map<string, { inBytes: number; outBytes: number }>();
  for (const [path, { bytesInOutput }] of Object.entries(output.inputs)) {
    const owner = ownerOf(path.replace(/^(\.\.\/)+/, ""));
    const entry = owners.get(owner) ?? { inBytes: 0, outBytes: 0 };
    entry.inBytes += meta.inputs[path]?.bytes ?? 0;
    entry.outBytes += bytesInOutput;
    owners.set(owner, entry);
  }
  return [...owners].map(([owner, e]) => ({ owner, ...e })).sort((a, b) => b.outBytes - a.outBytes);
}

/** Never run by the Worker, and why; each is weighed by an aliased build. */
const CANDIDATES: Array<{ name: string; aliases: string[]; why: string }> = [
  {
    name: "@ag-ui/encoder (+ @ag-ui/proto, @bufbuild/protobuf)",
    aliases: ["@ag-ui/encoder"],
    why: "the hub only calls encodeSSE (one `data: JSON\\n\\n` line); the protobuf encoder is never used",
  },
  {
    name: "@ai-sdk/gateway (+ @vercel/oidc)",
    aliases: ["@ai-sdk/gateway"],
    why: "the AI SDK's default provider for string model ids; every model we pass is an object",
  },
  {
    name: "@supabase/auth-js",
    aliases: ["@supabase/auth-js"],
    why: "the Worker never signs in: the user client has accessToken, the anon client no session",
  },
  {
    name: "@supabase/realtime-js (+ phoenix)",
    aliases: ["@supabase/realtime-js"],
    why: "no channel is ever opened (createClient still constructs a RealtimeClient)",
  },
  { name: "@supabase/storage-js (+ iceberg-js)", aliases: ["@supabase/storage-js"], why: "tool payloads go to R2, not Supabase Storage" },
  { name: "@supabase/functions-js", aliases: ["@supabase/functions-js"], why: "no Edge Function is invoked" },
];

try {
  const base = build();
  const owners = byOwner(base.meta);
  const totalOut = owners.reduce((sum, o) => sum + o.outBytes, 0);
  console.log(`\nAgent Worker bundle (wrangler deploy --dry-run, minified; ${new Date().toISOString()})`);
  console.log(`total: ${kib(base.raw)} minified, ${kib(base.gzip)} gzip (goal <= 250 KiB gzip)\n`);
  const widths = [52, 11, 12, 7, 12];
  console.log(row(["package / part", "source", "minified", "share", "≈ gzip"], widths));
  for (const o of owners) {
    if (o.outBytes / totalOut < 0.001) continue;
    console.log(
      row(
        [
          o.owner,
          kib(o.inBytes),
          kib(o.outBytes),
          `${((o.outBytes / totalOut) * 100).toFixed(1)}%`,
          kib((o.outBytes / totalOut) * base.gzip),
        ],
        widths,
      ),
    );
  }
  console.log("  (≈ gzip: the part's share of the minified bytes applied to the whole bundle's gzip size; the savings below are exact)");

  console.log("\nWhat the Worker never runs, weighed by building without it (aliased to an empty module)");
  const cwidths = [52, 11, 11];
  console.log(row(["left out", "minified", "gzip"], cwidths));
  const all: string[] = [];
  for (const candidate of CANDIDATES) {
    const without = build(candidate.aliases);
    all.push(...candidate.aliases);
    console.log(row([candidate.name, `-${kib(base.raw - without.raw)}`, `-${kib(base.gzip - without.gzip)}`], cwidths));
    console.log(`    ${candidate.why}`);
  }
  const supabase = build(CANDIDATES.filter((c) => c.name.startsWith("@supabase/")).flatMap((c) => c.aliases));
  console.log(
    row(
      ["supabase-js beyond postgrest-js (the four above)", `-${kib(base.raw - supabase.raw)}`, `-${kib(base.gzip - supabase.gzip)}`],
      cwidths,
    ),
  );
  const everything = build(all);
  console.log(row(["all of the above", `-${kib(base.raw - everything.raw)}`, `-${kib(base.gzip - everything.gzip)}`], cwidths));
  console.log(`  -> ${kib(everything.raw)} minified, ${kib(everything.gzip)} gzip`);
  const locales = owners.find((o) => o.owner.startsWith("zod (locales"));
  if (locales)
    console.log(
      `zod's locales other than en: ${kib(locales.outBytes)} minified (≈ ${kib((locales.outBytes / totalOut) * base.gzip)} gzip by share); ` +
        "reached through zod's own relative imports, so not weighed by aliasing",
    );
} finally {
  rmSync(work, { recursive: true, force: true });
}
