import { HOME_CONFIG } from "@/lib/agents/home-config";

// The variables through which each CLI reaches its model provider (from each pinned CLI's help,
// docs and its conformance test in test/cli-*.test.ts). Plain data, safe in the browser: the
// profile form names them under the adapter, so a person knows what to allow-list or store as a
// team credential.

export type ProviderVariable = { name: string; holds: string };

const anthropic = { name: "ANTHROPIC_API_KEY", holds: "the Anthropic API key" };
const openai = { name: "OPENAI_API_KEY", holds: "the OpenAI API key" };
const gemini = { name: "GEMINI_API_KEY", holds: "the Gemini API key" };
const homeFile = (adapter: keyof typeof HOME_CONFIG, holds: string) => ({ name: HOME_CONFIG[adapter].variable, holds: `${holds}, written to ~/${HOME_CONFIG[adapter].path}` });

export const PROVIDER_VARIABLES: Record<string, ProviderVariable[]> = {
  claude: [anthropic, { name: "ANTHROPIC_BASE_URL", holds: "another Messages API endpoint, e.g. a gateway" }],
  codex: [openai, { name: "OPENAI_BASE_URL", holds: "another Responses API endpoint" }],
  gemini: [gemini, { name: "GOOGLE_GEMINI_BASE_URL", holds: "another Gemini API endpoint" }],
  // With `--auth-type openai` in extra arguments: any OpenAI-compatible endpoint.
  qwen: [openai, { name: "OPENAI_BASE_URL", holds: "the OpenAI-compatible endpoint" }],
  pi: [anthropic, openai, gemini],
  opencode: [{ name: "OPENCODE_CONFIG_CONTENT", holds: "opencode's config JSON with its providers and their keys" }, anthropic, openai],
  copilot: [
    { name: "COPILOT_PROVIDER_API_KEY", holds: "the key of a provider of one's own, no GitHub sign-in" },
    { name: "COPILOT_PROVIDER_BASE_URL", holds: "that provider's OpenAI-compatible endpoint" },
  ],
  cline: [homeFile("cline", "Cline's providers.json as `cline auth` writes it")],
  kilo: [{ name: "KILO_CONFIG_CONTENT", holds: "Kilo's config JSON with its providers and their keys" }],
  droid: [homeFile("droid", "droid's settings.json with customModels: a model of one's own, no Factory account")],
  aider: [anthropic, openai],
  shell: [],
  demo: [],
};

export function providerVariablesOf(adapter: string): ProviderVariable[] {
  return Object.hasOwn(PROVIDER_VARIABLES, adapter) ? PROVIDER_VARIABLES[adapter] : [];
}

/** One line for the profile form: the variables and what each holds, or null for a CLI with none. */
export function providerVariablesHint(adapter: string): string | null {
  const variables = providerVariablesOf(adapter);
  if (!variables.length) return null;
  return `Provider variables: ${variables.map((v) => `${v.name} (${v.holds})`).join("; ")}`;
}
