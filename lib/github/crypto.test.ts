import { describe, expect, it } from "vitest";
import { decryptSecret, encryptSecret, SecretError } from "@/lib/github/crypto";

const key = "ab".repeat(32);

describe("secrets at rest", () => {
  it("round-trips, with a fresh nonce each time, and never shows the plaintext", () => {
    const a = encryptSecret("ghp_secret-token", key);
    const b = encryptSecret("ghp_secret-token", key);
    expect(a).not.toBe(b);
    expect(a).not.toContain("ghp_secret");
    expect(a.startsWith("v1.")).toBe(true);
    expect(decryptSecret(a, key)).toBe("ghp_secret-token");
  });

  it("refuses a tampered ciphertext and another key", () => {
    const [v, iv, tag, body] = encryptSecret("hello world", key).split(".");
    const flipped = Buffer.from(body, "base64url");
    flipped[0] ^= 1;
    expect(() => decryptSecret([v, iv, tag, flipped.toString("base64url")].join("."), key)).toThrow(SecretError);
    expect(() => decryptSecret(encryptSecret("x", key), "cd".repeat(32))).toThrow(SecretError);
    expect(() => decryptSecret("garbage", key)).toThrow(SecretError);
  });
});
