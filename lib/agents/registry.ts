import { aiderAdapter } from "@/lib/agents/aider";
import { claudeAdapter } from "@/lib/agents/claude";
import { clineAdapter } from "@/lib/agents/cline";
import { codexAdapter } from "@/lib/agents/codex";
import { copilotAdapter } from "@/lib/agents/copilot";
import { demoAdapter } from "@/lib/agents/demo";
import { droidAdapter } from "@/lib/agents/droid";
import { geminiAdapter } from "@/lib/agents/gemini";
import { kiloAdapter } from "@/lib/agents/kilo";
import { opencodeAdapter } from "@/lib/agents/opencode";
import { piAdapter } from "@/lib/agents/pi";
import { qwenAdapter } from "@/lib/agents/qwen";
import { shellAdapter } from "@/lib/agents/shell";
import type { AgentAdapter } from "@/lib/agents/types";

const adapters = {
  claude: claudeAdapter,
  codex: codexAdapter,
  gemini: geminiAdapter,
  qwen: qwenAdapter,
  pi: piAdapter,
  opencode: opencodeAdapter,
  copilot: copilotAdapter,
  cline: clineAdapter,
  kilo: kiloAdapter,
  droid: droidAdapter,
  aider: aiderAdapter,
  shell: shellAdapter,
  demo: demoAdapter,
} satisfies Record<string, AgentAdapter>;

export type AgentName = keyof typeof adapters;

export const AGENT_NAMES = Object.keys(adapters) as AgentName[];

export function isAgentName(name: string): name is AgentName {
  return Object.hasOwn(adapters, name);
}

export function getAdapter(name: string): AgentAdapter | null {
  return isAgentName(name) ? adapters[name] : null;
}

export function requireAdapter(name: string): AgentAdapter {
  const adapter = getAdapter(name);
  if (!adapter) throw new Error(`Unknown agent adapter "${name}"; expected one of: ${AGENT_NAMES.join(", ")}`);
  return adapter;
}
