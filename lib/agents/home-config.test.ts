import { describe, expect, it } from "vitest";
import { homeConfigFile } from "@/lib/agents/home-config";

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
});
