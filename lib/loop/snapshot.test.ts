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

  it("hashes numbers and statuses with sha1", () => {
    // printf '1:done\n2:pending\n3:pending' | sha1sum
    expect(promptSnapshot(prompts).hash).toBe("f295d19716647591fb99a3b78f092dfb03ed7817");
  });

  it("does not depend on input order", () => {
    expect(promptSnapshot([...prompts].reverse()).hash).toBe(promptSnapshot(prompts).hash);
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
