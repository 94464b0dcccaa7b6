import { z } from "zod";

// Postgres refuses NUL in text and both NUL and unpaired surrogates in jsonb; a string carrying
// either would fail deep inside a write (a 500) instead of at the door (a 400 naming the field).
const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
export const isSafeText = (s: string) => !s.includes("\u0000") && !UNPAIRED_SURROGATE.test(s);

export const UNSAFE_TEXT = "must not contain NUL characters or unpaired surrogates";

/** The path of the first string (value or key) Postgres would refuse, or null. */
export function findUnsafeText(value: unknown, path: (string | number)[] = []): (string | number)[] | null {
  if (typeof value === "string") return isSafeText(value) ? null : path;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findUnsafeText(value[i], [...path, i]);
      if (found) return found;
    }
    return null;
  }
  if (value && typeof value === "object") {
    for (const [key, v] of Object.entries(value)) {
      if (!isSafeText(key)) return [...path, key];
      const found = findUnsafeText(v, [...path, key]);
      if (found) return found;
    }
  }
  return null;
}

/** Throws the field error for the first unsafe string in a parsed body. */
export function requireSafeText(value: unknown, root: (string | number)[] = []): void {
  const path = findUnsafeText(value, root);
  if (path) throw new z.ZodError([{ code: "custom", path: path.length ? path : ["body"], message: UNSAFE_TEXT, input: undefined }]);
}

// Integer columns are int4: a larger number would fail the write.
export const MAX_INT4 = 2_147_483_647;
