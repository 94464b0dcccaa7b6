import { describe, expect, it } from "vitest";
import { isSessionId } from "@/lib/agents/session-id";

describe("a CLI's session id", () => {
  it.each([
    ["01a208d3-9ef5-73fd-8094-7dc9d3a282eb", true],
    ["ses_df72cfd13ffeXu33B3As49Cd4J", true],
    ["x".repeat(200), true],
    ["x".repeat(201), false],
    ["", false],
    ["abc\u0000def", false],
    ["two words", false],
    ["línea", false],
  ])("%j → %s", (value, ok) => {
    expect(isSessionId(value)).toBe(ok);
  });
});
