import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { EnvError, getEnv } from "@/lib/env";
import { DomainError, INTERNAL } from "@/lib/errors";

// AES-256-GCM with a fresh 96-bit nonce per secret: "v1.<iv>.<tag>.<ciphertext>" (base64url).
// The version prefix lets a future key rotation tell old ciphertexts from new ones.
const VERSION = "v1";

// A missing or malformed key is the operator's configuration to fix, never a crypto error.
function key(hex = getEnv().ENCRYPTION_KEY): Buffer {
  if (!hex) throw new EnvError(["ENCRYPTION_KEY is required to store credentials (GitHub connections, agent credentials)"]);
  if (!/^[0-9a-f]{64}$/i.test(hex)) throw new EnvError(["ENCRYPTION_KEY must be 64 hex characters (32 bytes)"]);
  return Buffer.from(hex, "hex");
}

export function encryptSecret(plaintext: string, keyHex?: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key(keyHex), iv);
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), body].map((p) => (typeof p === "string" ? p : p.toString("base64url"))).join(".");
}

export class SecretError extends DomainError {
  constructor(message: string) {
    super(500, INTERNAL, message);
  }
}

/**
 * Throws a SecretError on another format, a tampered ciphertext or a different key (the message
 * never holds the secret), an EnvError when the key itself is missing or malformed.
 */
export function decryptSecret(sealed: string, keyHex?: string): string {
  const parts = sealed.split(".");
  const [version, iv, tag, body] = parts;
  if (parts.length !== 4 || !iv || !tag) throw new SecretError("not a sealed secret");
  if (version !== VERSION) throw new SecretError(`sealed with an unknown format version "${version.slice(0, 10)}"`);
  const secretKey = key(keyHex);
  try {
    const decipher = createDecipheriv("aes-256-gcm", secretKey, Buffer.from(iv, "base64url"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    throw new SecretError("the secret cannot be decrypted with the current ENCRYPTION_KEY");
  }
}
