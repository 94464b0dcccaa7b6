import { describe, expect, it } from "vitest";
import { homeConfigFile, homeConfigSecrets } from "@/lib/agents/home-config";

describe("homeConfigFile", () => {
  it("gives Cline its providers.json and droid its settings.json from the profile's variable", () => {
    expect(homeConfigFile("cline", { CLINE_PROVIDERS_CONTENT: '{"version":1}' })).toEqual({ path: ".cline/data/settings/providers.json", content: '{\n  "version": 1\n}\n' });
    expect(homeConfigFile("droid", { DROID_SETTINGS_CONTENT: '{"customModels":[]}' })).toEqual({ path: ".factory/settings.json", content: '{\n  "customModels": []\n}\n' });
  });

  it("writes nothing when the variable is unset or empty, or the CLI reads no such file", () => {
    expect(homeConfigFile("cline", {})).toBeNull();
    expect(homeConfigFile("droid", { DROID_SETTINGS_CONTENT: "" })).toBeNull();
    expect(homeConfigFile("claude", { CLINE_PROVIDERS_CONTENT: "{}" })).toBeNull();
  });

  it("refuses a value that is not a JSON object, naming the variable", () => {
    expect(homeConfigFile("cline", { CLINE_PROVIDERS_CONTENT: "{version" })).toEqual({ error: "CLINE_PROVIDERS_CONTENT is not valid JSON" });
    expect(homeConfigFile("droid", { DROID_SETTINGS_CONTENT: "[1]" })).toEqual({ error: "DROID_SETTINGS_CONTENT must hold a JSON object" });
    expect(homeConfigFile("droid", { DROID_SETTINGS_CONTENT: "null" })).toEqual({ error: "DROID_SETTINGS_CONTENT must hold a JSON object" });
  });

  it("finds the keys inside the JSON for the log to mask, by variable and field", () => {
    const droid = JSON.stringify({ customModels: [{ model: "gpt-5", apiKey: "sk-droid-123456", baseUrl: "http://x" }, { model: "b", apiKey: "sk-other-654321" }] });
    expect(homeConfigSecrets("droid", { DROID_SETTINGS_CONTENT: droid })).toEqual({ "DROID_SETTINGS_CONTENT apiKey": "sk-droid-123456", "DROID_SETTINGS_CONTENT apiKey 2": "sk-other-654321" });
    const cline = JSON.stringify({ providers: { openai: { settings: { apiKey: "sk-cline-123456", model: "gpt-5" }, tokenSource: "manual" } } });
    expect(homeConfigSecrets("cline", { CLINE_PROVIDERS_CONTENT: cline })).toEqual({ "CLINE_PROVIDERS_CONTENT apiKey": "sk-cline-123456" });
    expect(homeConfigSecrets("cline", { CLINE_PROVIDERS_CONTENT: "{not json" })).toEqual({});
    expect(homeConfigSecrets("claude", { CLINE_PROVIDERS_CONTENT: cline })).toEqual({});
  });
});
