// Remote API keys at rest: AES-256-GCM with a key only the Worker holds (the
// TOOL_AGENT_SECRET_KEY secret), a fresh 96-bit IV per value, and the tool id as associated data,
// so a ciphertext copied onto another tool's row does not decrypt there.
// Stored form: `v1.<iv>.<ciphertext+tag>`, both base64url.

const VERSION = "v1";

const toBase64Url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
const fromBase64Url = (text: string) => Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));

export class SecretBoxError extends Error {
  override readonly name = "SecretBoxError";
}

/** Imports the 32-byte key (base64 or base64url), once per isolate per key text. */
const keys = new Map<string, Promise<CryptoKey>>();
export function importSecretKey(keyText: string): Promise<CryptoKey> {
  let key = keys.get(keyText);
  if (!key) {
    const raw = fromBase64Url(keyText.trim().replace(/=+$/, ""));
    if (raw.length !== 32) throw new SecretBoxError("TOOL_AGENT_SECRET_KEY must be 32 bytes, base64 encoded");
    key = crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt", "decrypt"]);
    keys.set(keyText, key);
  }
  return key;
}

export async function sealSecret(key: CryptoKey, plaintext: string, context: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: new TextEncoder().encode(context) },
    key,
    new TextEncoder().encode(plaintext),
  );
  return `${VERSION}.${toBase64Url(iv)}.${toBase64Url(new Uint8Array(sealed))}`;
}

export async function openSecret(key: CryptoKey, stored: string, context: string): Promise<string> {
  const [version, iv, data] = stored.split(".");
  if (version !== VERSION || !iv || !data) throw new SecretBoxError("the stored secret is not in the v1 format");
  try {
    const plain = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: fromBase64Url(iv), additionalData: new TextEncoder().encode(context) },
      key,
      fromBase64Url(data),
    );
    return new TextDecoder().decode(plain);
  } catch {
    // Wrong key, another tool's value, or tampered: the same answer, and never the value.
    throw new SecretBoxError("the stored secret does not decrypt with this key for this tool");
  }
}

/**
 * How a key is shown anywhere (answers, logs, records): its scheme prefix at most, e.g.
 * `sk-***`. Never more than three characters of a key, and none of a short one.
 */
export function maskSecret(secret: string | null | undefined): string | null {
  if (!secret) return null;
  const prefix = /^([A-Za-z]{1,3}[-_])/.exec(secret)?.[1];
  return prefix && secret.length >= 16 ? `${prefix}***` : "***";
}
