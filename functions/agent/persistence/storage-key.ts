// Object keys under one user's own area of the bucket: `<area>/<owner>/<segment>/...`. The
// owner is the verified user id; every other segment may come from a client or a model and is
// percent-encoded, which keeps it one key segment and never maps two ids to one key. Keys are
// derived like this, never read from a row, so a forged row cannot reach past its owner.

/** R2 keys are at most 1024 bytes; the key is ASCII after encoding. */
const MAX_KEY_LENGTH = 1024;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** undefined when the owner is not a user id, a segment is empty or cannot be encoded, or the key is too long. */
export function ownedKey(area: string, ownerId: string, segments: readonly string[]): string | undefined {
  if (!UUID.test(ownerId) || segments.some((segment) => segment === "")) return undefined;
  let key: string;
  try {
    key = [area, ownerId.toLowerCase(), ...segments.map(encodeURIComponent)].join("/");
  } catch {
    return undefined; // a lone surrogate cannot be encoded
  }
  return key.length <= MAX_KEY_LENGTH ? key : undefined;
}
