import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { EnvError, getEnv } from "@/lib/env";

// AES-256-GCM with a fresh 96-bit nonce per secret: "v1.<iv>.<tag>.<ciphertext>" (base64url).
// The version prefix lets a future key rotation tell old ciphertexts from new ones.
const VERSION = "v1";

function key(hex = getEnv().ENCRYPTION_KEY): Buffer {
  if (!hex) throw new EnvError(["ENCRYPTION_KEY is required to store GitHub credentials"]);
  return Buffer.from(hex, "hex");
}

export function encryptSecret(plaintext: string, keyHex?: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key(keyHex), iv);
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), body].map((p) => (typeof p === "string" ? p : p.toString("base64url"))).join(".");
}

export class SecretError extends Error {}

/** Throws a SecretError on a tampered ciphertext or a different key; the message never holds the secret. */
export function decryptSecret(sealed: string, keyHex?: string): string {
  const [version, iv, tag, body] = sealed.split(".");
  if (version !== VERSION || !iv || !tag || body === undefined) throw new SecretError("not a sealed secret");
  try {
    const decipher = createDecipheriv("aes-256-gcm", key(keyHex), Buffer.from(iv, "base64url"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    throw new SecretError("the secret cannot be decrypted with the current ENCRYPTION_KEY");
  }
}
