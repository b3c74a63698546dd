// Full tool payloads live in object storage (R2), one JSON object per tool call, at a path
// that is stable once written (it is recorded in the message) and unguessable (a random part).
// A failure here never fails a run: the caller records that the payload is missing.

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

export function r2PayloadStore(bucket: R2Bucket, name = "PAYLOADS"): PayloadStore {
  return {
    bucket: name,
    async put(path, body) {
      await bucket.put(path, JSON.stringify(body), { httpMetadata: { contentType: "application/json" } });
    },
    async get(path) {
      try {
        const object = await bucket.get(path);
        return object ? await object.json() : undefined;
      } catch {
        return undefined;
      }
    },
  };
}
