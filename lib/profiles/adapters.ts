// The adapters of lib/agents/registry.ts as a plain list, safe to import in the browser.
export const ADAPTERS = ["claude", "codex", "gemini", "qwen", "pi", "opencode", "copilot", "cline", "kilo", "droid", "aider", "shell", "demo"] as const;
