import { fieldLabel } from "@/lib/validation/labels";

type Row = { actorLabel: string; action: string; before: unknown; after: unknown };
type Values = Record<string, unknown>;

const obj = (v: unknown): Values => (v && typeof v === "object" && !Array.isArray(v) ? (v as Values) : {});
const show = (v: unknown) => (v === null || v === undefined || v === "" ? "none" : typeof v === "boolean" ? (v ? "on" : "off") : Array.isArray(v) ? v.join(", ") || "none" : typeof v === "object" ? JSON.stringify(v) : String(v));
const quoted = (v: unknown) => (v ? ` “${String(v)}”` : "");
const prompt = (a: Values) => (a.number !== undefined ? ` #${a.number}` : "") + quoted(a.title);

/** What changed, field by field, in the form's words: "Parallel agents 2 → 3". */
function changes(before: Values, after: Values): string {
  const keys = Object.keys(after).filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]));
  if (keys.length === 0) return "";
  return `: ${keys.map((k) => `${fieldLabel([k])} ${k in before ? `${show(before[k])} → ` : ""}${show(after[k])}`).join("; ")}`;
}

const SENTENCES: Record<string, (who: string, b: Values, a: Values) => string> = {
  "team.created": (w, _b, a) => `${w} created the team${quoted(a.name)}`,
  "token.created": (w, _b, a) => `${w} created the API token${quoted(a.name)} with the ${a.role} role${a.projectId ? " for one project" : ""}`,
  "token.revoked": (w) => `${w} revoked an API token`,
  "settings.updated": (w, b, a) => `${w} changed project settings${changes(b, a)}`,
  "run.lost": () => "A run was lost: its worker stopped answering, and its prompt went back to the queue",
  "run.cancelled": (w) => `${w} cancelled a run`,
  "prompts.imported": (w, _b, a) => `${w} imported prompt files${a.count !== undefined ? ` (${a.count})` : ""}`,
  "prompt.created": (w, _b, a) => `${w} added prompt${prompt(a)}`,
  "prompt.edited": (w, b, a) => `${w} edited a prompt${changes(b, a)}`,
  "prompt.retried": (w) => `${w} retried a prompt`,
  "prompt.cancelled": (w) => `${w} cancelled a prompt`,
  "project.created": (w, _b, a) => `${w} created the project${quoted(a.name)}`,
  "project.updated": (w, b, a) => `${w} changed the project${changes(b, a)}`,
  "project.archived": (w) => `${w} archived a project`,
  "project.approval_policy_changed": (w, b, a) => `${w} changed the approval policy${changes(b, a)}`,
  "profile.created": (w, _b, a) => `${w} created the agent profile${quoted(a.name)}`,
  "profile.updated": (w, b, a) => `${w} changed the agent profile${quoted(a.name ?? b.name)}`,
  "profile.deleted": (w, b) => `${w} deleted the agent profile${quoted(b.name)}`,
  "member.joined": (w, _b, a) => `${w} joined the team${a.role ? ` as ${a.role}` : ""}`,
  "member.role_changed": (w, b, a) => `${w} changed a member's role from ${show(b.role)} to ${show(a.role)}`,
  "member.removed": (w) => `${w} removed a member from the team`,
  "invitation.created": (w, _b, a) => `${w} invited ${a.email ? String(a.email) : "someone (any address)"} as ${a.role}`,
  "invitation.revoked": (w) => `${w} revoked an invitation`,
  "credential.created": (w, _b, a) => `${w} stored the agent credential${quoted(a.name)}`,
  "credential.replaced": (w, _b, a) => `${w} replaced the agent credential${quoted(a.name)}`,
  "credential.deleted": (w, b) => `${w} deleted the agent credential${quoted(b.name)}`,
  "github.connected": (w) => `${w} connected GitHub`,
  "github.disconnected": (w) => `${w} disconnected GitHub`,
  "github.mentions_changed": (w, _b, a) => (a.mentionLogin ? `${w} set the GitHub bot login for mentions to ${show(a.mentionLogin)}` : `${w} turned GitHub mentions off`),
  "account.signed_out_everywhere": (w) => `${w} signed out on every device`,
  "approval.approved": (w) => `${w} approved waiting work`,
  "approval.rejected": (w) => `${w} rejected waiting work`,
  "loop.start": (w) => `${w} started the loop`,
  "loop.stop": (w) => `${w} stopped the loop`,
  "loop.pause": (w) => `${w} paused the loop`,
  "loop.resume": (w) => `${w} resumed the loop`,
  "loop.parallel": (w, _b, a) => `${w} turned parallel executors ${a.parallelEnabled ? "on" : "off"}`,
  "loop.branch": (w, _b, a) => `${w} switched the loop to the branch ${show(a.activeBranch)}`,
};

/** An audit entry as a sentence a person reads: who did what, with the values that matter. */
export function auditSentence(row: Row): string {
  const say = SENTENCES[row.action];
  return say ? say(row.actorLabel, obj(row.before), obj(row.after)) : `${row.actorLabel}: ${row.action.replace(/[._]/g, " ")}`;
}

/** The audit filter's groups: the first word of an action. */
export const AUDIT_AREAS = ["project", "settings", "prompt", "run", "loop", "approval", "member", "invitation", "token", "profile", "credential", "github", "team", "account"] as const;
export type AuditArea = (typeof AUDIT_AREAS)[number];
