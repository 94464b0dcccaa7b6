// The run page turns each adapter's log lines into the same steps: one "session started" with the
// model and session id (however the CLI spreads them over its events), tool calls, text, result.
import { describe, expect, it } from "vitest";
import { readTranscript } from "@/lib/agents/testing";
import { toSteps } from "@/app/(dashboard)/runs/[id]/_components/log-lines";

const kinds = (adapter: string, lines: string[]) =>
  toSteps(adapter, lines).map((s) => (s.kind === "raw" ? `raw ${s.text}` : s.event.type === "init" ? `init ${s.event.model ?? "-"} ${s.event.sessionId ?? "-"}` : s.event.type));

describe("the run page's steps for the CLIs reading JSON events", () => {
  it("qwen: its init line names both", async () => {
    const steps = kinds("qwen", await readTranscript("qwen.jsonl"));
    expect(steps[0]).toBe("init qwen3-coder-plus adf3df29-58c9-4657-91c2-707859392606");
    expect(steps.filter((s) => s.startsWith("init"))).toHaveLength(1);
  });

  it("pi: the session event names the session, its first model call the model", async () => {
    const steps = kinds("pi", await readTranscript("pi.jsonl"));
    expect(steps).toEqual(["init m1 01a208d3-9ef5-73fd-8094-7dc9d3a282eb", "tool_use", "tool_result", "text", "raw API retry 1/3: 429 rate limited", "result"]);
    // Its result carries no summary: the page shows its last words, as the run records them.
    const result = toSteps("pi", await readTranscript("pi.jsonl")).at(-1);
    expect(result).toEqual({ kind: "event", event: expect.objectContaining({ type: "result", ok: true, summary: "Wrote hello.txt." }) });
  });

  it("opencode: each step's start names the session; one step shows it", async () => {
    const steps = kinds("opencode", await readTranscript("opencode.jsonl"));
    expect(steps).toEqual(["init - ses_df72cfd13ffeXu33B3As49Cd4J", "tool_use", "tool_result", "text", "result", "result"]);
  });

  it("copilot: the model from its tools update, the session id from its result, in the one step at the top", async () => {
    const steps = kinds("copilot", await readTranscript("copilot.jsonl"));
    expect(steps).toEqual(["init gpt-5 70ef4ad4-ecb2-4e8d-9c96-f2fad84e9fdc", "tool_use", "tool_result", "text", "raw query: 400 double says 400", "result"]);
  });
});
