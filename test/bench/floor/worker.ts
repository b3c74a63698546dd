// The floor of the run-overhead benchmark: the work one agent run cannot avoid, with nothing
// around it. No router, no validation library, no AI SDK, no supabase-js, no event encoder.
//   1. verify the app token (jose, the project's JWKS, cached per isolate like the agent's);
//   2. mint the controlled credential (jose, ES256, the key imported once per isolate);
//   3. the same PostgREST calls, in the same order and with the same bodies, as a demo run
//      (record_run_start, calendar.read, record_run_finish), each with a deadline;
//   4. R2 objects of the same sizes as the run's tool payloads;
//   5. one Durable Object round trip that stores the run's events (one object per run);
//   6. the same SSE bytes.
// The script (bodies, sizes, frames) is captured from a real run by the benchmark, so the floor
// follows the product's payloads as they change. Never deployed.
import { DurableObject } from "cloudflare:workers";
import { createRemoteJWKSet, importJWK, type JWK, jwtVerify, SignJWT } from "jose";
import { decodeFloorScript, type FloorScript, forRun } from "./run-script.ts";

interface FloorEnv {
  SUPABASE_URL: string;
  SUPABASE_ANON_KEY: string;
  CREDENTIAL_SIGNING_JWK: string;
  FLOOR_SCRIPT: string;
  PAYLOADS: R2Bucket;
  FLOOR_HUB: DurableObjectNamespace<FloorHub>;
}

const DEADLINE_MS = 5_000;

/** One run's event log: a single put of every event. */
export class FloorHub extends DurableObject<FloorEnv> {
  async store(frames: string[]): Promise<number> {
    const entries: Record<string, string> = { meta: JSON.stringify({ next: frames.length, finished: true }) };
    frames.forEach((frame, i) => {
      entries[`e:${String(i).padStart(8, "0")}`] = frame;
    });
    await this.ctx.storage.put(entries);
    return frames.length;
  }
}

// Per isolate, as the agent does: the key set (jose caches its keys), the signing key, the script.
let state: { keys: ReturnType<typeof createRemoteJWKSet>; signer: Promise<CryptoKey>; kid: string; script: FloorScript } | undefined;

function isolateState(env: FloorEnv) {
  if (!state) {
    const jwk = JSON.parse(env.CREDENTIAL_SIGNING_JWK) as JWK & { kid: string };
    state = {
      keys: createRemoteJWKSet(new URL(`${env.SUPABASE_URL}/auth/v1/.well-known/jwks.json`), { timeoutDuration: DEADLINE_MS }),
      signer: importJWK(jwk, "ES256") as Promise<CryptoKey>,
      kid: jwk.kid,
      script: decodeFloorScript(env.FLOOR_SCRIPT),
    };
  }
  return state;
}

async function run(env: FloorEnv, ids: { threadId: string; runId: string }, userId: string, write: (frame: string) => void) {
  const { script, signer, kid } = isolateState(env);
  const now = Math.floor(Date.now() / 1000);
  const credential = await new SignJWT({ role: "authenticated" })
    .setProtectedHeader({ alg: "ES256", kid, typ: "JWT" })
    .setSubject(userId)
    .setAudience("authenticated")
    .setIssuer("edge-agent")
    .setIssuedAt(now)
    .setExpirationTime(now + 300)
    .setJti(crypto.randomUUID())
    .sign(await signer);
  const call = async (index: number) => {
    const scripted = script.calls[index]!;
    const response = await fetch(`${env.SUPABASE_URL}${forRun(scripted.path, script, ids)}`, {
      method: scripted.method,
      headers: { ...scripted.headers, apikey: env.SUPABASE_ANON_KEY, authorization: `Bearer ${credential}` },
      ...(scripted.method === "GET" ? {} : { body: forRun(scripted.body, script, ids) }),
      signal: AbortSignal.timeout(DEADLINE_MS),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`floor call ${index} answered ${response.status}: ${text.slice(0, 200)}`);
    return text === "" ? null : (JSON.parse(text) as unknown);
  };
  const frames = script.frames.map((frame) => forRun(frame, script, ids));
  // The order of a demo run: start record, then the tool's read, then payloads and the end record.
  write(frames[0]!);
  for (let i = 0; i < script.calls.length - 1; i++) await call(i);
  await Promise.all(
    script.payloadBytes.map((bytes, i) =>
      env.PAYLOADS.put(`floor/${userId}/${ids.runId}/${i}.json`, "x".repeat(bytes), { httpMetadata: { contentType: "application/json" } }),
    ),
  );
  for (const frame of frames.slice(1, -1)) write(frame);
  await call(script.calls.length - 1);
  const hub = env.FLOOR_HUB.get(env.FLOOR_HUB.idFromName(`${userId}:${ids.runId}`));
  await hub.store(frames);
  write(frames.at(-1)!);
}

export default {
  async fetch(request: Request, env: FloorEnv): Promise<Response> {
    if (request.method !== "POST") return new Response("floor: POST a RunAgentInput\n");
    const token = /^Bearer (.+)$/.exec(request.headers.get("authorization") ?? "")?.[1];
    if (!token) return new Response("no token", { status: 401 });
    const { keys } = isolateState(env);
    let userId: string;
    try {
      const { payload } = await jwtVerify(token, keys, { audience: "authenticated", requiredClaims: ["exp", "sub"] });
      userId = payload.sub!;
    } catch {
      return new Response("bad token", { status: 401 });
    }
    const body = (await request.json()) as { threadId: string; runId: string };
    const ids = { threadId: body.threadId, runId: body.runId };
    const bytes = new TextEncoder();
    const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
    const writer = writable.getWriter();
    const done = run(env, ids, userId, (frame) => void writer.write(bytes.encode(frame)))
      .catch((error: unknown) => writer.write(bytes.encode(`data: {"type":"RUN_ERROR","message":${JSON.stringify(String(error))}}\n\n`)))
      .finally(() => writer.close());
    void done;
    return new Response(readable, { headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" } });
  },
};
