/** Lower-case ASCII words joined by dashes; accents fold to their base letter, anything else splits words. */
export function slugify(text: string, maxLength = 50): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, maxLength)
    .replace(/-+$/, "");
}
