import { z } from "zod";

/** A GitHub login: letters, digits and single inner hyphens, at most 39 characters. */
export const GITHUB_LOGIN = /^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$/;

// One schema for the settings form and the route; empty turns mention intake off.
export const mentionSettingsInput = z.object({
  mentionLogin: z.union([
    z.literal("").transform(() => null),
    z.null(),
    z.string().trim().transform((s) => s.replace(/^@/, "")).pipe(z.string().regex(GITHUB_LOGIN, "must be a GitHub login (letters, digits and single hyphens, at most 39 characters)")),
  ], { error: "must be a GitHub login or empty" }),
});
export type MentionSettingsInput = z.input<typeof mentionSettingsInput>;

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
// `@login` as GitHub links it: not inside a word or an email address, not a longer login's start.
const pattern = (login: string) => new RegExp(`(?<![\\w@./-])@${escape(login)}(?![\\w-])`, "gi");

export function mentions(body: string, login: string): boolean {
  return pattern(login).test(body);
}

/** The request without the bot's mention, spaces tidied. */
export function withoutMention(body: string, login: string): string {
  return body.replace(pattern(login), " ").replace(/[ \t]+/g, " ").replace(/ *\n */g, "\n").trim();
}

/** What people with these permissions may ask for: GitHub's "write", "maintain" or "admin". */
export const WRITE_PERMISSIONS = new Set(["admin", "write"]);
export const canWrite = (answer: { permission?: string; role_name?: string }) =>
  WRITE_PERMISSIONS.has(answer.permission ?? "") || ["admin", "maintain", "write"].includes(answer.role_name ?? "");
