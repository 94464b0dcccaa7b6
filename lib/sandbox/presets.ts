/** Named groups of hosts an admin can allow with one tick; each CLI's model API is one of them. */
export const EGRESS_PRESETS = {
  anthropic: { label: "Anthropic API (Claude Code)", hosts: ["api.anthropic.com"] },
  openai: { label: "OpenAI API (Codex CLI)", hosts: ["api.openai.com", "auth.openai.com"] },
  google: { label: "Google AI (Gemini CLI)", hosts: ["generativelanguage.googleapis.com", "oauth2.googleapis.com", "cloudcode-pa.googleapis.com"] },
  npm: { label: "npm registry", hosts: ["registry.npmjs.org", "registry.yarnpkg.com"] },
  pypi: { label: "PyPI", hosts: ["pypi.org", "files.pythonhosted.org"] },
  crates: { label: "crates.io", hosts: ["crates.io", "index.crates.io", "static.crates.io"] },
  go: { label: "Go module proxy", hosts: ["proxy.golang.org", "sum.golang.org"] },
  debian: { label: "Debian archive", hosts: ["deb.debian.org", "security.debian.org"] },
  github: { label: "GitHub", hosts: ["github.com", "api.github.com", "codeload.github.com", "objects.githubusercontent.com", "raw.githubusercontent.com"] },
} as const satisfies Record<string, { label: string; hosts: readonly string[] }>;

export type EgressPreset = keyof typeof EGRESS_PRESETS;
export const EGRESS_PRESET_IDS = Object.keys(EGRESS_PRESETS) as EgressPreset[];

// A run may always reach the model API of the CLI it runs: without it the agent cannot work at all.
const ADAPTER_PRESET: Partial<Record<string, EgressPreset>> = { claude: "anthropic", codex: "openai", gemini: "google" };

export function adapterPreset(adapter: string): EgressPreset | null {
  return ADAPTER_PRESET[adapter] ?? null;
}
