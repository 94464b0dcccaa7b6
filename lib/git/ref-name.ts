import { z } from "zod";

// git check-ref-format's rules for a branch name (`git help check-ref-format`), checked in
// process: names come from people and agents and are used in paths and git commands.
export function isValidBranchName(name: string): boolean {
  if (!name || name.length > 200 || name === "@" || name === "HEAD" || name.startsWith("-")) return false;
  // Control characters, space, ~ ^ : ? * [ \ and DEL anywhere.
  if (/[\u0000-\u0020\u007f~^:?*[\\]/.test(name)) return false;
  if (name.includes("..") || name.includes("@{") || name.includes("//")) return false;
  if (name.startsWith("/") || name.endsWith("/") || name.endsWith(".")) return false;
  return name.split("/").every((part) => !part.startsWith(".") && !part.endsWith(".lock"));
}

export const branchNameField = z.string().trim().min(1, "is required")
  .refine(isValidBranchName, "is not a valid branch name (git check-ref-format refuses it)");
