// Images a user sent inline, kept so history can show them again. One object per image in the
// payloads bucket, under the owner's own prefix and the run's id (a user's run ids are unique,
// and a run has one user message): `user-images/<owner>/<run id>/<n>`. As for payloads, the key
// is derived from the verified user and never read from a row. Size is bounded by the request
// (at most 4 images of about 6 MB). Storing never fails a run: an image that could not be
// stored answers 404 later. Every call has a deadline.
import { withDeadline } from "../../lib/bounded-fetch.ts";
import { ownedKey } from "./storage-key.ts";

/**
 * Served as themselves only where a browser cannot run them: other image types (an SVG can
 * carry script) are served as plain bytes for download.
 */
const SAFE_IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp", "image/avif", "image/heic", "image/heif"]);
export const servedContentType = (stored: string | undefined) =>
  stored && SAFE_IMAGE_TYPES.has(stored.toLowerCase()) ? stored.toLowerCase() : "application/octet-stream";

/** undefined when an id cannot be part of a key (storage-key.ts). */
export function imagePath(ownerId: string, runId: string, index: number): string | undefined {
  if (!Number.isInteger(index) || index < 0 || index > 99) return undefined;
  return ownedKey("user-images", ownerId, [runId, String(index)]);
}

export interface StoredImage {
  bytes: ArrayBuffer;
  contentType: string;
}

export interface ImageStore {
  put(path: string, base64: string, mimeType: string): Promise<void>;
  /** undefined when missing, or when storage does not answer in time. */
  get(path: string): Promise<StoredImage | undefined>;
}

function decodeBase64(base64: string): Uint8Array {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export function r2ImageStore(bucket: R2Bucket, options: { timeoutMs: number }): ImageStore {
  return {
    async put(path, base64, mimeType) {
      await withDeadline(
        bucket.put(path, decodeBase64(base64), { httpMetadata: { contentType: mimeType } }),
        options.timeoutMs,
        "image storage",
      );
    },
    async get(path) {
      try {
        // Reading the body is part of the call: a stream that stalls is bounded too.
        return await withDeadline(
          bucket
            .get(path)
            .then(async (object) =>
              object ? { bytes: await object.arrayBuffer(), contentType: servedContentType(object.httpMetadata?.contentType) } : undefined,
            ),
          options.timeoutMs,
          "image storage",
        );
      } catch {
        return undefined;
      }
    },
  };
}

/** Where history points an inline image: the image route of the run that carried it. */
export const imageUrl = (runId: string, index: number) => `/api/v1/agent/runs/${encodeURIComponent(runId)}/images/${index}`;

/**
 * A user message's attachments as history gives them: as recorded, with the image route's
 * `url` on each inline image (recorded with `inlineBytes`, never the data).
 */
export function withImageUrls(attachments: unknown, runId: string | null): unknown {
  if (!Array.isArray(attachments) || !runId) return attachments ?? [];
  return attachments.map((attachment: unknown, index) =>
    attachment !== null && typeof attachment === "object" && typeof (attachment as { inlineBytes?: unknown }).inlineBytes === "number"
      ? { ...attachment, url: imageUrl(runId, index) }
      : attachment,
  );
}
