import { readFileSync, statSync, type Stats } from "node:fs";

// Small synchronous file helpers of the git layer's own reads (a pooled take, git's ref files).

/** The error's errno code (ENOENT, EEXIST, …), if it has one. */
export const errorCode = (error: unknown) => (error as NodeJS.ErrnoException).code;

/** A small file's text; "" when it cannot be read. */
export function readOrEmpty(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return "";
  }
}

/** What stat says of a path; null when it cannot say. */
export function statOrNull(path: string): Stats | null {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}
