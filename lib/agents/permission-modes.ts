// What each CLI may do without asking, as a profile setting. Plain data, safe in the browser.
// Headless, nothing answers a CLI's question, so a call its mode would ask about is refused.
// The default is the CLI's most permissive mode: a run's agent works inside Ringmaster's sandbox
// (its own worktree, no other files, egress by the project's allow-list), and a mode that cannot
// run the tests or the build leaves the work unchecked.

/** `args`: what the CLI is given for this mode, when not `flag value` (a CLI whose mode is a tool list). */
export type PermissionMode = { value: string; allows: string; args?: string[] };

export type PermissionModes = {
  /** The CLI flag that takes the mode. */
  flag: string;
  default: string;
  modes: PermissionMode[];
  /** Flags in extra arguments that would set the mode a second time (the CLI refuses or ignores one). */
  conflicting: string[];
};

// Choices of `claude --help` (@anthropic-ai/claude-code 2.1.330) for --permission-mode.
const claude: PermissionModes = {
  flag: "--permission-mode",
  default: "bypassPermissions",
  modes: [
    { value: "bypassPermissions", allows: "every tool without asking: edits, shell commands (tests, builds), web fetches. Claude Code refuses it when run as root outside the sandbox" },
    { value: "acceptEdits", allows: "file edits and common file commands (mkdir, touch, mv, cp); other shell commands such as tests and builds are denied" },
    { value: "auto", allows: "a classifier approves the calls it judges safe and denies the rest" },
    { value: "dontAsk", allows: "only tools pre-approved in settings or --allowedTools; every other call is denied" },
    { value: "manual", allows: "reads only: every edit or command would ask, and headless that is a denial" },
    { value: "plan", allows: "reads and plans; edits nothing and runs nothing" },
  ],
  conflicting: ["--permission-mode", "--dangerously-skip-permissions"],
};

// Choices of `codex exec --help` (@openai/codex 0.169) for --sandbox; exec never asks for approval.
const codex: PermissionModes = {
  flag: "--sandbox",
  default: "danger-full-access",
  modes: [
    { value: "danger-full-access", allows: "edits and commands without Codex's own sandbox (Ringmaster's sandbox still confines the run): tests, builds, network by the project's allow-list" },
    { value: "workspace-write", allows: "edits in the worktree; commands run in Codex's own sandbox without network, which may not start inside Ringmaster's" },
    { value: "read-only", allows: "reads and read-only commands; edits nothing" },
  ],
  conflicting: ["--sandbox", "-s", "--full-auto", "--dangerously-bypass-approvals-and-sandbox", "--yolo"],
};

// Choices of `gemini --help` (@google/gemini-cli 0.61) for --approval-mode.
const gemini: PermissionModes = {
  flag: "--approval-mode",
  default: "yolo",
  modes: [
    { value: "yolo", allows: "every tool without asking: edits, shell commands (tests, builds), web fetches" },
    { value: "auto_edit", allows: "file edits only: headless Gemini then offers no shell tool, so it cannot run tests or builds" },
    { value: "default", allows: "reads only: every edit or command would ask, and headless that is a denial" },
    { value: "plan", allows: "reads and plans; edits nothing and runs nothing" },
  ],
  conflicting: ["--approval-mode", "--yolo", "-y"],
};

// Choices of `qwen --help` (@qwen-code/qwen-code 0.24.4) for --approval-mode.
const qwen: PermissionModes = {
  flag: "--approval-mode",
  default: "yolo",
  modes: [
    { value: "yolo", allows: "every tool without asking: edits, shell commands (tests, builds), web fetches" },
    { value: "auto", allows: "a classifier approves the calls it judges safe and denies the rest" },
    { value: "auto-edit", allows: "file edits only; shell commands such as tests and builds are denied" },
    { value: "default", allows: "reads only: every edit or command would ask, and headless that is a denial" },
    { value: "plan", allows: "reads and plans; edits nothing and runs nothing" },
  ],
  conflicting: ["--approval-mode", "--yolo", "-y"],
};

// pi (@mariozechner/pi-coding-agent 0.73.1) never asks: its mode is which tools it is given (--tools).
const pi: PermissionModes = {
  flag: "--tools",
  default: "all",
  modes: [
    { value: "all", allows: "every built-in tool: read, edit, write and bash (tests, builds)", args: [] },
    { value: "read-only", allows: "reads and searches (read, grep, find, ls); edits nothing and runs nothing", args: ["--tools", "read,grep,find,ls"] },
  ],
  conflicting: ["--tools", "-t", "--no-tools", "-nt", "--no-builtin-tools", "-nbt"],
};

// `opencode run --help` (opencode-ai 1.18.33): --auto approves every permission its config does not deny.
const opencode: PermissionModes = {
  flag: "--auto",
  default: "auto",
  modes: [
    { value: "auto", allows: "every tool its config does not deny, without asking: edits, shell commands (tests, builds), web fetches", args: ["--auto"] },
    { value: "config", allows: "what opencode's permission config allows; a call it would ask about is refused headless", args: [] },
  ],
  conflicting: ["--auto"],
};

// `copilot --help` (@github/copilot 1.0.102): prompt mode requires --allow-all-tools at least.
const copilot: PermissionModes = {
  flag: "--allow-all",
  default: "allow-all",
  modes: [
    { value: "allow-all", allows: "every tool, path and URL without asking: edits, shell commands (tests, builds), web fetches", args: ["--allow-all"] },
    { value: "allow-all-tools", allows: "every tool without asking, but only paths inside the worktree and no URL it would ask about", args: ["--allow-all-tools"] },
  ],
  conflicting: ["--allow-all", "--yolo", "--allow-all-tools"],
};

// `kilo run --help` (@kilocode/cli 7.7.7, an opencode fork): the same --auto as opencode.
const kilo: PermissionModes = { ...opencode, modes: opencode.modes.map((m) => ({ ...m, allows: m.allows.replace("opencode's", "Kilo's") })) };

// `cline --help` (cline 3.0.65): --auto-approve defaults to true; --yolo also disables sub-agents and
// runs until the model calls submit_and_exit; --plan plans without acting.
const cline: PermissionModes = {
  flag: "--auto-approve",
  default: "auto-approve",
  modes: [
    { value: "auto-approve", allows: "every tool without asking: edits, shell commands (tests, builds), web fetches", args: ["--auto-approve", "true"] },
    { value: "plan", allows: "reads and plans; edits nothing and runs nothing", args: ["--plan"] },
  ],
  conflicting: ["--auto-approve", "--yolo", "-y", "--plan", "-p"],
};

// `droid exec --help` (droid 0.215.0): read-only without flags, --auto low|medium|high, or no checks.
const droid: PermissionModes = {
  flag: "--auto",
  default: "skip-permissions-unsafe",
  modes: [
    { value: "skip-permissions-unsafe", allows: "every tool and command without its own checks (Ringmaster's sandbox still confines the run): edits, tests, builds, network by the project's allow-list", args: ["--skip-permissions-unsafe"] },
    { value: "high", allows: "edits and commands, git push and running downloaded code; droid still blocks what it judges system-wide" },
    { value: "medium", allows: "edits, builds, tests, package installs and local git; no git push" },
    { value: "low", allows: "file edits and basic file commands; builds and tests are denied" },
    { value: "read-only", allows: "reads and read-only commands; edits nothing", args: [] },
  ],
  conflicting: ["--auto", "--skip-permissions-unsafe"],
};

/** The adapters with a permission mode; the others (aider, shell, demo) have none to set. */
export const PERMISSION_MODES: Partial<Record<string, PermissionModes>> = { claude, codex, gemini, qwen, pi, opencode, copilot, cline, kilo, droid };

export function permissionModesOf(adapter: string): PermissionModes | null {
  return Object.hasOwn(PERMISSION_MODES, adapter) ? PERMISSION_MODES[adapter]! : null;
}

/** The extra argument (as typed) that sets the mode again, or null. */
export function conflictingArg(adapter: string, extraArgs: readonly string[]): string | null {
  const modes = permissionModesOf(adapter);
  if (!modes) return null;
  return extraArgs.find((arg) => modes.conflicting.some((flag) => arg === flag || arg.startsWith(`${flag}=`))) ?? null;
}

/**
 * The mode flag an adapter adds: the profile's mode or the default, none when the extra
 * arguments already set it (profiles saved before the mode was a setting).
 */
export function permissionArgs(adapter: string, mode: string | undefined, extraArgs: readonly string[]): string[] {
  const modes = permissionModesOf(adapter);
  if (!modes || conflictingArg(adapter, extraArgs)) return [];
  const value = mode ?? modes.default;
  return modes.modes.find((m) => m.value === value)?.args ?? [modes.flag, value];
}
