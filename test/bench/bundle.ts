// What the agent Worker's bundle is made of, and what leaving out the parts it never runs would
// save. Builds with `wrangler deploy --dry-run --outdir <tmp> --metafile` (the production build:
// minified, as wrangler.toml says), reads esbuild's metafile (bytes each input contributes to
// the output) and gzips the output (Node's zlib, default level, as wrangler reports it).
// Each stand-in of wrangler.toml's [alias] (functions/bundle/) is weighed by building again
// without its alias lines: the exact bytes it saves, raw and gzip.
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

function build(configPath?: string): Build {
  const out = join(work, `out-${Math.random().toString(36).slice(2, 8)}`);
  execFileSync(
    process.execPath,
    [
      join(repoRoot, "node_modules/wrangler/bin/wrangler.js"),
      "deploy",
      "--dry-run",
      ...(configPath ? ["--config", configPath] : []),
      "--outdir",
      out,
      "--metafile",
      join(out, "meta.json"),
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

/**
 * The stand-ins wrangler.toml's [alias] swaps in, grouped as they go together; each is weighed
 * by building with its alias lines taken out of a copy of wrangler.toml.
 */
const STAND_INS: Array<{ name: string; aliases: string[] }> = [
  { name: "zod: English only, no compile, no fromJSONSchema", aliases: ["zod", "zod/v4", "zod/v4/core"] },
  { name: "@ai-sdk/gateway (+ @vercel/oidc)", aliases: ["@ai-sdk/gateway"] },
  { name: "@supabase/auth-js", aliases: ["@supabase/auth-js"] },
  { name: "@supabase/realtime-js (+ phoenix)", aliases: ["@supabase/realtime-js"] },
  { name: "@supabase/storage-js (+ iceberg-js)", aliases: ["@supabase/storage-js"] },
  { name: "@supabase/functions-js", aliases: ["@supabase/functions-js"] },
  { name: "zod-to-json-schema (zod 3 only)", aliases: ["zod-to-json-schema"] },
];

const config = readFileSync(join(repoRoot, "wrangler.toml"), "utf8");
const aliasLine = (name: string) => new RegExp(`^"${name.replace(/[/.]/g, "\\$&")}" = .*$\\n`, "m");

/** Builds with a copy of wrangler.toml that lacks the alias lines of these packages. */
function buildWithout(aliases: string[]): Build {
  let copy = config;
  for (const name of aliases) {
    if (!aliasLine(name).test(copy)) throw new Error(`wrangler.toml has no [alias] line for ${name}`);
    copy = copy.replace(aliasLine(name), "");
  }
  const path = join(repoRoot, `.bench-bundle-${process.pid}.wrangler.toml`);
  writeFileSync(path, copy);
  try {
    return build(path);
  } finally {
    rmSync(path, { force: true });
  }
}

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

  console.log("\nWhat each stand-in saves (wrangler.toml [alias]; the bundle built again with its lines taken out)");
  const cwidths = [52, 11, 11];
  console.log(row(["stand-in for", "minified", "gzip"], cwidths));
  for (const standIn of STAND_INS) {
    const without = buildWithout(standIn.aliases);
    console.log(row([standIn.name, `-${kib(without.raw - base.raw)}`, `-${kib(without.gzip - base.gzip)}`], cwidths));
  }
  const none = buildWithout(STAND_INS.flatMap((standIn) => standIn.aliases));
  console.log(row(["all of them", `-${kib(none.raw - base.raw)}`, `-${kib(none.gzip - base.gzip)}`], cwidths));
  console.log(`  without any stand-in: ${kib(none.raw)} minified, ${kib(none.gzip)} gzip`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
