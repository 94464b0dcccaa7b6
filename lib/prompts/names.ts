import { slugify } from "@/lib/slug";

export function promptFileName(number: number, title: string): string {
  return `${String(number).padStart(2, "0")}-${slugify(title) || "untitled"}.md`;
}

export function planningKeyForBranch(branch: string): string {
  const key = branch
    .replace(/[^A-Za-z0-9._-]/g, "-")
    .replace(/-{2,}/g, "-")
    // Dots are trimmed with dashes so that a key can never be "." or ".." and climb out of .planning/.
    .replace(/^[-.]+|[-.]+$/g, "");
  return key || "unnamed-branch";
}
