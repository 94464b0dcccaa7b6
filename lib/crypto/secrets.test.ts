import { describe, expect, it } from "vitest";
import { EnvError } from "@/lib/env";
import { decryptSecret, encryptSecret, SecretError } from "@/lib/crypto/secrets";

const key = "ab".repeat(32);
const undecryptable = new SecretError("the secret cannot be decrypted with the current ENCRYPTION_KEY");

describe("secrets at rest", () => {
  it("round-trips, with a fresh nonce each time, and never shows the plaintext", () => {
    const a = encryptSecret("ghp_secret-token", key);
    const b = encryptSecret("ghp_secret-token", key);
    expect(a).not.toBe(b);
    expect(a).not.toContain("ghp_secret");
    const [version, iv, tag, body] = a.split(".");
    expect(version).toBe("v1");
    expect([Buffer.from(iv, "base64url").length, Buffer.from(tag, "base64url").length]).toEqual([12, 16]);
    expect(Buffer.from(body, "base64url").length).toBe("ghp_secret-token".length);
    expect(decryptSecret(a, key)).toBe("ghp_secret-token");
    expect(decryptSecret(encryptSecret("", key), key)).toBe("");
    expect(decryptSecret(encryptSecret("grüße ✓", key.toUpperCase()), key)).toBe("grüße ✓");
  });

  it("refuses a tampered ciphertext, tag or nonce, and another key", () => {
    const sealed = encryptSecret("hello world", key);
    const flip = (part: number) => {
      const parts = sealed.split(".");
      const bytes = Buffer.from(parts[part], "base64url");
      bytes[0] ^= 1;
      parts[part] = bytes.toString("base64url");
      return parts.join(".");
    };
    for (const part of [1, 2, 3]) expect(() => decryptSecret(flip(part), key)).toThrow(undecryptable);
    // A server-side fault, never the caller's: 500 internal.
    const err = (() => { try { decryptSecret(flip(3), key); } catch (e) { return e; } })();
    expect(err).toBeInstanceOf(SecretError);
    expect(err).toMatchObject({ name: "SecretError", status: 500, code: "internal" });
    expect(() => decryptSecret(sealed, "cd".repeat(32))).toThrow(undecryptable);
  });

  it("refuses another version or shape with a SecretError that says which", () => {
    const [, iv, tag, body] = encryptSecret("hello", key).split(".");
    expect(() => decryptSecret(["v2", iv, tag, body].join("."), key)).toThrow(new SecretError('sealed with an unknown format version "v2"'));
    // A long version is cut to its first 10 characters: whatever a row holds, the message stays short.
    expect(() => decryptSecret(["v1-then-a-long-tail", iv, tag, body].join("."), key)).toThrow(new SecretError('sealed with an unknown format version "v1-then-a-"'));
    for (const shape of ["garbage", "", ["v1", iv, tag].join("."), ["v1", iv, tag, body, "extra"].join("."), ["v1", "", tag, body].join("."), ["v1", iv, "", body].join(".")]) {
      expect(() => decryptSecret(shape, key), shape).toThrow(new SecretError("not a sealed secret"));
    }
  });

  it("reports a missing or malformed key as a configuration error, not a crypto error", () => {
    const sealed = encryptSecret("hello", key);
    const missing = "Invalid configuration: ENCRYPTION_KEY is required to store credentials (GitHub connections, agent credentials)";
    const malformed = "Invalid configuration: ENCRYPTION_KEY must be 64 hex characters (32 bytes)";
    expect(() => encryptSecret("hello", "")).toThrow(new EnvError(["ENCRYPTION_KEY is required to store credentials (GitHub connections, agent credentials)"]));
    expect(() => encryptSecret("hello", "")).toThrow(missing);
    expect(() => decryptSecret(sealed, "")).toThrow(missing);
    expect(() => decryptSecret(sealed, "")).toThrow(EnvError);
    for (const bad of ["ab".repeat(31), "zz".repeat(32), `${key}00`, ` ${key.slice(1)}`, `x${key}`]) {
      expect(() => encryptSecret("hello", bad), bad).toThrow(malformed);
      expect(() => decryptSecret(sealed, bad), bad).toThrow(malformed);
    }
  });
});
