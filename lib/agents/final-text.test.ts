import { describe, expect, it } from "vitest";
import { FinalText } from "@/lib/agents/final-text";
import type { AgentEvent } from "@/lib/agents/types";

function summaryOf(events: AgentEvent[], result: AgentEvent = { type: "result", ok: true }) {
  const final = new FinalText();
  for (const e of events) final.observe(e);
  return final.fill(result);
}

describe("the final text as a run's summary", () => {
  it("is the text after the last tool call, its deltas joined", () => {
    expect(summaryOf([
      { type: "text", text: "I'll write", delta: true },
      { type: "text", text: " it.", delta: true },
      { type: "tool_use", id: "1", name: "write_file", input: {} },
      { type: "tool_result", toolUseId: "1", output: "ok", isError: false },
      { type: "text", text: "Done:", delta: true },
      { type: "text", text: " hello.txt written. ", delta: true },
    ])).toEqual({ type: "result", ok: true, summary: "Done: hello.txt written." });
  });

  it("is the last whole message when several come in a row", () => {
    expect(summaryOf([{ type: "text", text: "First." }, { type: "text", text: "Second." }])).toMatchObject({ summary: "Second." });
  });

  it("never replaces the CLI's own summary, and is absent when the agent wrote nothing", () => {
    expect(summaryOf([{ type: "text", text: "Done." }], { type: "result", ok: false, summary: "Invalid API key" })).toMatchObject({ summary: "Invalid API key" });
    expect(summaryOf([{ type: "text", text: " \n" }])).toEqual({ type: "result", ok: true });
    expect(summaryOf([{ type: "text", text: "x" }], { type: "log", text: "y" })).toEqual({ type: "log", text: "y" });
  });
});
