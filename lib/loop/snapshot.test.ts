import { describe, expect, it } from "vitest";
import { promptSnapshot } from "@/lib/loop/snapshot";

describe("promptSnapshot", () => {
  const prompts = [
    { number: 2, status: "pending" as const },
    { number: 1, status: "done" as const },
    { number: 3, status: "pending" as const },
  ];

  it("counts every status, zero included", () => {
    expect(promptSnapshot(prompts)).toMatchObject({
      counts: { pending: 2, in_progress: 0, done: 1, failed: 0, cancelled: 0 },
      total: 3,
    });
  });

  it("hashes numbers, statuses and file names with sha1", () => {
    // printf '1:done:\n2:pending:\n3:pending:' | sha1sum
    expect(promptSnapshot(prompts).hash).toBe("960801517e89e5751c1b649f73864a0f6a96e894");
  });

  it("does not depend on input order", () => {
    expect(promptSnapshot([...prompts].reverse()).hash).toBe(promptSnapshot(prompts).hash);
  });

  it("changes when a prompt's file is renamed (seed 000 hashes file names)", () => {
    const named = (filePath: string) => promptSnapshot([{ ...prompts[0], filePath }, prompts[1], prompts[2]]).hash;
    expect(named(".planning/main/prompts/02-a.md")).not.toBe(named(".planning/main/prompts/02-b.md"));
    expect(named(".planning/main/prompts/02-a.md")).not.toBe(promptSnapshot(prompts).hash);
  });

  it("changes when a status or a number changes", () => {
    const base = promptSnapshot(prompts).hash;
    expect(promptSnapshot([{ number: 2, status: "in_progress" }, prompts[1], prompts[2]]).hash).not.toBe(base);
    expect(promptSnapshot([{ number: 4, status: "pending" }, prompts[1], prompts[2]]).hash).not.toBe(base);
  });

  it("handles an empty project", () => {
    expect(promptSnapshot([])).toEqual({
      hash: "da39a3ee5e6b4b0d3255bfef95601890afd80709",
      counts: { pending: 0, in_progress: 0, done: 0, failed: 0, cancelled: 0 },
      total: 0,
    });
  });
});
