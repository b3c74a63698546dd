import { cloudflareTest } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";
import type { LocalStackInfo } from "./test/support/stack-info.ts";

// Started once for the projects that need it (see the file); unit tests run without it.
const databaseSuites = "./test/setup/database-suites.ts";

export default defineConfig({
  test: {
    globalSetup: ["./test/setup/generated-files.ts"],
    projects: [
      // Pure functions, in Node. No database starts for them.
      { test: { name: "unit", include: ["test/unit/**/*.test.ts"] } },
      // Database behaviour (RLS, PostgREST) through supabase-js, in Node, against the real stack.
      { test: { name: "data", include: ["test/data/**/*.test.ts"], globalSetup: [databaseSuites], testTimeout: 20_000 } },
      // Worker code inside workerd, against the real stack.
      {
        plugins: [
          cloudflareTest(({ inject }) => {
            const stack = inject<LocalStackInfo>("localStack");
            return {
              wrangler: { configPath: "./wrangler.toml" },
              miniflare: {
                bindings: {
                  SUPABASE_URL: stack.supabaseUrl,
                  SUPABASE_ANON_KEY: stack.anonKey,
                  AUTH_JWT_SECRET: stack.keys.legacySecret,
                  CREDENTIAL_SIGNING_JWK: JSON.stringify(stack.keys.credentialPrivateJwk),
                  // The run hub's idle limit, short so abandonment tests wait seconds, not minutes.
                  RUN_IDLE_TIMEOUT_SECONDS: "5",
                },
                // The Tool Agent is another Worker, which these tests do not start: its binding
                // answers 503 here. The e2e tests run both Workers on wrangler dev, connected.
                serviceBindings: {
                  TOOL_AGENT: () =>
                    Response.json({ error: { code: "UPSTREAM_UNAVAILABLE", message: "no Tool Agent in these tests" } }, { status: 503 }),
                },
              },
            };
          }),
        ],
        test: { name: "worker", include: ["test/worker/**/*.test.ts"], globalSetup: [databaseSuites], testTimeout: 20_000 },
      },
      // The README's run command as a person uses it: `npm run dev`, then curl. Each file starts
      // the stack it needs (`npm run dev` itself, or test/support/wrangler-dev.ts).
      { test: { name: "e2e", include: ["test/e2e/**/*.test.ts"], testTimeout: 30_000 } },
    ],
  },
});
