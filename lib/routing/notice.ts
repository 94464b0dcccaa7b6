import type { PromptStatus } from "@/lib/db";
import { getEnv } from "@/lib/env";

export type Notice = { key: string; text: string; final: boolean };
type Seen = { status: PromptStatus; failureLog: string | null; run: { id: string } | null; pr: { number: number; url: string } | null };

const link = (path: string) => new URL(path, getEnv().APP_URL).toString();
const firstLine = (s: string | null) => (s ?? "").split("\n").map((l) => l.trim()).find(Boolean)?.slice(0, 300) ?? null;

/**
 * What the place a prompt was asked from (a Slack thread, a GitHub issue) should hear next about
 * it; the key says which notice it is, so each is sent once.
 */
export function noticeFor({ status, failureLog, run, pr }: Seen): Notice | null {
  const runText = run ? ` ${link(`/runs/${run.id}`)}` : "";
  if (status === "failed") return { key: "failed", final: true, text: `Failed: ${firstLine(failureLog) ?? "the agent gave up"}.${runText}` };
  if (status === "cancelled") return { key: "cancelled", final: true, text: "Cancelled in Ringmaster." };
  if (status === "done") return { key: "done", final: true, text: pr ? `Done: pull request ${pr.url}` : `Done and merged.${runText}` };
  if (pr) return { key: `pr:${pr.number}`, final: false, text: `Pull request opened: ${pr.url}` };
  if (run) return { key: `run:${run.id}`, final: false, text: `Working on it: ${link(`/runs/${run.id}`)}` };
  return null;
}
