// Full tool payloads live in object storage (R2), one JSON object per tool call. The key is
// derived, never stored-and-trusted: history rebuilds it from the verified user id and the
// message's run and ids, so a row can only ever lead to the caller's own payloads
// (docs/history.md). A failure here never fails a run: the caller records that the payload is
// missing. Every call has a deadline (DATA_PLANE_TIMEOUT_MS), so a storage that hangs is a
// storage that failed.
import { DATA_PLANE_TIMEOUT_MS, withDeadline } from "../../lib/bounded-fetch.ts";
import { ownedKey, UUID } from "./storage-key.ts";

export interface PayloadStore {
  readonly bucket: string;
  put(path: string, body: unknown): Promise<void>;
  /** undefined when the object is missing or storage does not answer. */
  get(path: string): Promise<unknown | undefined>;
}

const PAYLOAD_AREA = "tool-payloads";

/**
 * Where one tool message's payload lives: under the owner's own area, then the run, then the
 * tool call and the message id (a server-made UUID, so two calls that reuse a tool call id do
 * not collide). undefined when an id cannot be part of a key (storage-key.ts).
 */
export function payloadPath(ownerId: string, runId: string, toolCallId: string, messageId: string): string | undefined {
  if (!UUID.test(messageId)) return undefined;
  return ownedKey(PAYLOAD_AREA, ownerId, [runId, toolCallId, `${messageId.toLowerCase()}.json`]);
}

/** Every payload of one user starts with this. */
export function ownerPrefix(ownerId: string): string {
  return `${PAYLOAD_AREA}/${ownerId.toLowerCase()}/`;
}

export function r2PayloadStore(bucket: R2Bucket, options: { name?: string; timeoutMs?: number } = {}): PayloadStore {
  const timeoutMs = options.timeoutMs ?? DATA_PLANE_TIMEOUT_MS;
  return {
    bucket: options.name ?? "PAYLOADS",
    async put(path, body) {
      await withDeadline(
        bucket.put(path, JSON.stringify(body), { httpMetadata: { contentType: "application/json" } }),
        timeoutMs,
        "payload storage",
      );
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
