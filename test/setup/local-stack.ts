// The real local data plane for the suites that need one (test/setup/database-suites.ts).
//   main   - what every data and Worker test talks to;
//   outage - a second plane whose Postgres tests stop and start through a small control
//            endpoint, so "the database is down" is tested without disturbing the others;
//   faults - a third, for the fault tests of run-faults.test.ts alone: its Postgres is stopped
//            and started, and its Postgres or PostgREST hung (SIGSTOP) and resumed, under
//            /faults/... (a plane of its own, so a test that hangs it never stalls the
//            outage tests of other files running at the same time, nor the reverse).
import { createServer } from "node:http";
import pg from "pg";
import { startDataPlane } from "../../supabase/local/data-plane.ts";
import { generateLocalKeys } from "../../supabase/local/keys.ts";
import { SUPERUSER_PASSWORD } from "../../supabase/local/postgres.ts";
import { hang, resume } from "../support/hang.ts";
import type { LocalStackInfo } from "../support/stack-info.ts";

async function createMainUser(port: number): Promise<{ id: string; phone: string; email: string }> {
  const client = new pg.Client({ host: "127.0.0.1", port, user: "postgres", password: SUPERUSER_PASSWORD, database: "postgres" });
  await client.connect();
  try {
    const id = crypto.randomUUID();
    const phone = `+1555${String(Math.floor(Math.random() * 1e7)).padStart(7, "0")}`;
    const email = `guest-${id.slice(0, 8)}@example.test`;
    await client.query("insert into auth.users (id, email, phone) values ($1, $2, $3)", [id, email, phone]);
    return { id, phone, email };
  } finally {
    await client.end();
  }
}

export async function startLocalStack(): Promise<{ info: LocalStackInfo; stop(): Promise<void> }> {
  const keys = await generateLocalKeys();
  const [main, outage, faults] = await Promise.all([startDataPlane({ keys }), startDataPlane({ keys }), startDataPlane({ keys })]);
  console.log(
    `local data plane ready in ${main.timings.totalMs.toFixed(0)} ms (template ${main.timings.templateBuilt ? "built" : "reused"})`,
  );

  const control = createServer((req, res) => {
    const action = req.method === "POST" ? req.url : undefined;
    // Fresh users for tests inside workerd, which cannot reach Postgres directly.
    if (action === "/users") {
      createMainUser(main.postgresPort).then(
        (user) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(user)),
        (error: Error) => res.writeHead(500).end(error.message),
      );
      return;
    }
    // Hang or resume a server of the faults plane: /faults/postgres/pause, /faults/postgrest/resume, ...
    const signal = /^\/faults\/(postgres|postgrest)\/(pause|resume)$/.exec(action ?? "");
    if (signal) {
      const target = signal[1] === "postgres" ? "postgres" : "postgrest";
      Promise.resolve()
        .then(() => (signal[2] === "pause" ? hang(faults, target) : resume(faults, target)))
        .then(
          () => res.writeHead(204).end(),
          (error: Error) => res.writeHead(500).end(error.message),
        );
      return;
    }
    const plane = action?.startsWith("/faults/") ? faults : outage;
    const path = action?.replace(/^\/faults\//, "/");
    const run = path === "/postgres/stop" ? plane.stopPostgres() : path === "/postgres/start" ? plane.startPostgres() : undefined;
    if (!run) {
      res.writeHead(404).end();
      return;
    }
    run.then(
      () => res.writeHead(204).end(),
      (error: Error) => res.writeHead(500).end(error.message),
    );
  });
  await new Promise<void>((resolve) => control.listen(0, "127.0.0.1", resolve));
  const address = control.address();
  const controlPort = typeof address === "object" && address ? address.port : 0;

  const info: LocalStackInfo = {
    supabaseUrl: main.url,
    anonKey: main.anonKey,
    postgres: { port: main.postgresPort, password: SUPERUSER_PASSWORD },
    keys,
    outage: { supabaseUrl: outage.url, controlUrl: `http://127.0.0.1:${controlPort}` },
    faults: { supabaseUrl: faults.url },
  };
  return {
    info,
    async stop() {
      control.close();
      // A test that failed half-way may have left a server paused; it could not stop then.
      for (const target of ["postgres", "postgrest"] as const) resume(faults, target);
      await Promise.all([main.stop(), outage.stop(), faults.stop()]);
    },
  };
}
