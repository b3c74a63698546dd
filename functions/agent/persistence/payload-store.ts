// Full tool payloads live in object storage (R2), one JSON object per tool call, at a path
// that is stable once written (it is recorded in the message) and unguessable (a random part).
// A failure here never fails a run: the caller records that the payload is missing. Every
// call has a deadline (DATA_PLANE_TIMEOUT_MS), so a storage that hangs is a storage that failed.
import { DATA_PLANE_TIMEOUT_MS, withDeadline } from "../../lib/bounded-fetch.ts";

export interface PayloadStore {
  readonly bucket: string;
  put(path: string, body: unknown): Promise<void>;
  /** undefined when the object is missing or storage does not answer. */
  get(path: string): Promise<unknown | undefined>;
}

/** Only characters safe in an object key; ids come from clients. */
const segment = (value: string) => value.replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 128);

export function payloadPath(ownerId: string, runId: string, toolCallId: string): string {
  return `tool-payloads/${segment(ownerId)}/${segment(runId)}/${segment(toolCallId)}-${crypto.randomUUID()}.json`;
}

export function r2PayloadStore(bucket: R2Bucket, options: { name?: string; timeoutMs?: number } = {}): PayloadStore {
  const timeoutMs = options.timeoutMs ?? DATA_PLANE_TIMEOUT_MS;
  return {
    bucket: options.name ?? "PAYLOADS",
    async put(path, body) {
      await withDeadline(bucket.put(path, JSON.stringify(body), { httpMetadata: { contentType: "application/json" } }), timeoutMs, "payload storage");
    },
    async get(path) {
      try {
        // Reading the body is part of the call: a stream that stalls is bounded too.
        return await withDeadline(
          bucket.get(path).then((object) => (object ? object.json() : undefined)),
          timeoutMs,
          "payload storage",
        );
      } catch {
        return undefined;
      }
    },
  };
}
