import { describe, expect, it } from "vitest";
import { LogMask, runLogSecrets } from "@/lib/runs/log-mask";

const RUN_TOKEN = `rm_run_${"A".repeat(43)}`;

describe("a run log's mask", () => {
  it("names each secret a run holds: secret-like passed variables, the team's keys, provider file keys, the run token", () => {
    const env = { ANTHROPIC_API_KEY: "sk-ant-passed-0001", LANG: "C.UTF-8", MY_SECRET: "", DROID_SETTINGS_CONTENT: JSON.stringify({ customModels: [{ apiKey: "droid-key-12345678" }] }) };
    expect(runLogSecrets({ env, passed: ["ANTHROPIC_API_KEY", "LANG", "MY_SECRET", "DROID_SETTINGS_CONTENT"], credentials: { OPENAI_API_KEY: "sk-team-0002" }, token: RUN_TOKEN })).toEqual({
      ANTHROPIC_API_KEY: "sk-ant-passed-0001",
      "DROID_SETTINGS_CONTENT apiKey": "droid-key-12345678",
      OPENAI_API_KEY: "sk-team-0002",
      RINGMASTER_TOKEN: RUN_TOKEN,
    });
  });

  it.each([
    ["key sk-ant-passed-0001 end", "key [ANTHROPIC_API_KEY masked] end"],
    ["sk-ant-passed-0001-and-more", "[LONGER_KEY masked]"],
    ["short abc1234 stays", "short abc1234 stays"],
    [`Bearer ${RUN_TOKEN}`, "Bearer [RINGMASTER_TOKEN masked]"],
    [`x rm_api_${"b".repeat(43)} y`, "x [Ringmaster token masked] y"],
    [`rm_run_${"A".repeat(42)}`, `rm_run_${"A".repeat(42)}`],
    [`rm_run_${"A".repeat(44)}`, `rm_run_${"A".repeat(44)}`],
  ])("%s → %s", (line, masked) => {
    const mask = new LogMask().add({ ANTHROPIC_API_KEY: "sk-ant-passed-0001", LONGER_KEY: "sk-ant-passed-0001-and-more", SHORT: "abc1234" });
    expect(mask.apply(line)).toBe(masked);
  });
});
