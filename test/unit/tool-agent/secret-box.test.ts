import { expect, test } from "vitest";
import { importSecretKey, maskSecret, openSecret, SecretBoxError, sealSecret } from "../../../functions/tool-agent/secrets/secret-box.ts";

const keyText = Buffer.alloc(32, 3).toString("base64");
const otherKeyText = Buffer.alloc(32, 4).toString("base64");

test("a sealed secret opens with the same key for the same tool only", async () => {
  const key = await importSecretKey(keyText);
  const sealed = await sealSecret(key, "sk-live-0123456789", "tool_a");
  expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+$/);
  expect(sealed).not.toContain("0123456789");
  expect(await openSecret(key, sealed, "tool_a")).toBe("sk-live-0123456789");
  await expect(openSecret(key, sealed, "tool_b")).rejects.toThrow(SecretBoxError);
  await expect(openSecret(await importSecretKey(otherKeyText), sealed, "tool_a")).rejects.toThrow(SecretBoxError);
  // The second-to-last character always carries whole bits of the sealed bytes; it is swapped
  // for a different one (picking by the last character, as before, left it unchanged 1 time in 64).
  const tampered = `${sealed.slice(0, -2)}${sealed.at(-2) === "A" ? "B" : "A"}${sealed.slice(-1)}`;
  expect(tampered).not.toBe(sealed);
  await expect(openSecret(key, tampered, "tool_a")).rejects.toThrow(SecretBoxError);
  // Two seals of one value differ (fresh IV).
  expect(await sealSecret(key, "same", "t")).not.toBe(await sealSecret(key, "same", "t"));
});

test("the key must be 32 bytes", () => {
  expect(() => importSecretKey(Buffer.alloc(16).toString("base64"))).toThrow(/32 bytes/);
});

test("masking shows at most a short scheme prefix of a long key", () => {
  expect(maskSecret("sk-0123456789abcdef")).toBe("sk-***");
  expect(maskSecret("ghp_0123456789abcdef")).toBe("ghp_***");
  expect(maskSecret("sk-short")).toBe("***");
  expect(maskSecret("0123456789abcdefghij")).toBe("***");
  expect(maskSecret("")).toBeNull();
  expect(maskSecret(undefined)).toBeNull();
});
