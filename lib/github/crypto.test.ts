import { beforeAll, describe, expect, it } from "vitest";

beforeAll(() => {
  process.env.DATABASE_URL ??= "postgresql://x@127.0.0.1/x";
  process.env.ENCRYPTION_KEY = "ab".repeat(32);
});

describe("secrets at rest", () => {
  it("round-trips, with a fresh nonce each time, and never shows the plaintext", async () => {
    const { decryptSecret, encryptSecret } = await import("@/lib/github/crypto");
    const a = encryptSecret("ghp_secret-token");
    const b = encryptSecret("ghp_secret-token");
    expect(a).not.toBe(b);
    expect(a).not.toContain("ghp_secret");
    expect(a.startsWith("v1.")).toBe(true);
    expect(decryptSecret(a)).toBe("ghp_secret-token");
  });

  it("refuses a tampered ciphertext", async () => {
    const { decryptSecret, encryptSecret, SecretError } = await import("@/lib/github/crypto");
    const [v, iv, tag, body] = encryptSecret("hello world").split(".");
    const flipped = Buffer.from(body, "base64url");
    flipped[0] ^= 1;
    expect(() => decryptSecret([v, iv, tag, flipped.toString("base64url")].join("."))).toThrow(SecretError);
    expect(() => decryptSecret("garbage")).toThrow(SecretError);
  });
});
