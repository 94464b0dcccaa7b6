import { describe, expect, it } from "vitest";
import { HOME_CONFIG } from "@/lib/agents/home-config";
import { PROVIDER_VARIABLES, providerVariablesHint, providerVariablesOf } from "@/lib/agents/provider-variables";
import { AGENT_NAMES } from "@/lib/agents/registry";

describe("provider variables", () => {
  it("has an entry for every adapter, and none besides", () => {
    expect(Object.keys(PROVIDER_VARIABLES).sort()).toEqual([...AGENT_NAMES].sort());
  });

  it.each([
    ["claude", ["ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL"]],
    ["codex", ["OPENAI_API_KEY", "OPENAI_BASE_URL"]],
    ["gemini", ["GEMINI_API_KEY", "GOOGLE_GEMINI_BASE_URL"]],
    ["qwen", ["OPENAI_API_KEY", "OPENAI_BASE_URL"]],
    ["copilot", ["COPILOT_PROVIDER_API_KEY", "COPILOT_PROVIDER_BASE_URL"]],
    ["cline", ["CLINE_PROVIDERS_CONTENT"]],
    ["kilo", ["KILO_CONFIG_CONTENT"]],
    ["droid", ["DROID_SETTINGS_CONTENT"]],
    ["shell", []],
    ["nonsense", []],
  ])("%s reads %j", (adapter, names) => {
    expect(providerVariablesOf(adapter).map((v) => v.name)).toEqual(names);
  });

  it("names the provider file variables Ringmaster writes into the run's HOME by the same table", () => {
    expect(providerVariablesOf("cline")[0].name).toBe(HOME_CONFIG.cline.variable);
    expect(providerVariablesOf("droid")[0].name).toBe(HOME_CONFIG.droid.variable);
  });

  it("says them in one line, or nothing for a CLI with none", () => {
    expect(providerVariablesHint("claude")).toBe(
      "Provider variables: ANTHROPIC_API_KEY (the Anthropic API key); ANTHROPIC_BASE_URL (another Messages API endpoint, e.g. a gateway)",
    );
    expect(providerVariablesHint("cline")).toBe(
      "Provider variables: CLINE_PROVIDERS_CONTENT (Cline's providers.json as `cline auth` writes it, written to ~/.cline/data/settings/providers.json)",
    );
    expect(providerVariablesHint("demo")).toBeNull();
  });
});
