/** How one CLI is pointed at Ringmaster's MCP server for one run. */
export type McpWiring = {
  /** Placed before the adapter's own extra arguments. */
  args: string[];
  env: Record<string, string>;
  /** Written into the run's private HOME before the CLI starts (paths relative to it). */
  files: { path: string; content: string }[];
};

export const MCP_SERVER_NAME = "ringmaster";
const CLAUDE_CONFIG = ".ringmaster/mcp.json";
const GEMINI_SETTINGS = ".gemini/settings.json";
const QWEN_CONFIG = ".ringmaster/qwen-mcp.json";
const COPILOT_CONFIG = ".ringmaster/copilot-mcp.json";
// opencode's global config file (XDG_CONFIG_HOME unset: ~/.config), merged under a project's and
// OPENCODE_CONFIG_CONTENT (where a profile puts its provider).
const OPENCODE_CONFIG = ".config/opencode/opencode.json";
// Kilo Code's global config (its fork of opencode's), merged under KILO_CONFIG_CONTENT.
const KILO_CONFIG = ".config/kilo/kilo.json";
// Factory Droid's user-level MCP file, as `droid mcp add --type http` writes it (settings.json is apart).
const DROID_MCP = ".factory/mcp.json";
// Droid's user-level local settings, read over settings.json (which a profile's DROID_SETTINGS_CONTENT fills).
const DROID_LOCAL_SETTINGS = ".factory/settings.local.json";
// Cline's MCP settings beside its providers.json (which a profile's CLINE_PROVIDERS_CONTENT fills).
const CLINE_MCP_SETTINGS = ".cline/data/settings/cline_mcp_settings.json";

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/**
 * Each CLI's own way to add one MCP server for a single run, checked against its docs:
 * - Claude Code: `--mcp-config <file>` with `--strict-mcp-config` (no other server of any config
 *   file loads); its tools are allowed up front, since a headless run cannot ask.
 * - Codex: `-c` config overrides (TOML values); `codex exec` has no server-file flag, and
 *   overrides write nothing anywhere. Its tools are approved up front, as for Claude Code.
 * - Gemini CLI: `mcpServers` in `~/.gemini/settings.json`, here the run's own HOME; `httpUrl`
 *   is Streamable HTTP, and `trust` skips confirmations a headless run cannot give.
 * - Qwen Code: `--mcp-config <file>` (`{mcpServers}` as Gemini CLI's, `httpUrl` and `trust`).
 * - opencode: no flag; an `mcp` entry of type `remote` in its global config, here the run's HOME.
 * - GitHub Copilot CLI: `--additional-mcp-config @<file>`, an `http` server with all its tools.
 * - Kilo Code: as opencode, an `mcp` entry of type `remote` in its global config in the run's HOME.
 * - Cline: no flag; `mcpServers` in its `cline_mcp_settings.json` in the run's HOME, a
 *   `streamableHttp` server (its `--auto-approve` covers the tools).
 * - Factory Droid: no flag; `mcpServers` in `~/.factory/mcp.json`, an `http` server, as
 *   `droid mcp add --type http` writes it. It offers MCP tools to its model through ToolSearch,
 *   named in a reminder of its first request only: `blockOnMcpLoad` (in the run's own
 *   settings.local.json) makes `droid exec` connect its servers before that request, without
 *   which a server slower than droid's start (a loaded machine) is never offered to the model.
 * - pi has no MCP client (by its author's choice, README "No MCP"): it gets none.
 * - The demo agent reads the URL from its environment.
 * The gateway adds the run's token, so no file holds it. Null: the CLI has no MCP support.
 */
export function mcpWiring(adapter: string, url: string, home: string): McpWiring | null {
  switch (adapter) {
    case "claude":
      return {
        args: ["--mcp-config", `${home}/${CLAUDE_CONFIG}`, "--strict-mcp-config", "--allowedTools", `mcp__${MCP_SERVER_NAME}`],
        env: {},
        files: [{ path: CLAUDE_CONFIG, content: json({ mcpServers: { [MCP_SERVER_NAME]: { type: "http", url } } }) }],
      };
    case "codex":
      return {
        args: [
          "-c", `mcp_servers.${MCP_SERVER_NAME}.url=${JSON.stringify(url)}`,
          // `codex exec` has no one to ask: unapproved MCP tool calls that write are cancelled.
          "-c", `mcp_servers.${MCP_SERVER_NAME}.default_tools_approval_mode="approve"`,
        ],
        env: {},
        files: [],
      };
    case "gemini":
      return { args: [], env: {}, files: [{ path: GEMINI_SETTINGS, content: json({ mcpServers: { [MCP_SERVER_NAME]: { httpUrl: url, trust: true } } }) }] };
    case "qwen":
      return { args: ["--mcp-config", `${home}/${QWEN_CONFIG}`], env: {}, files: [{ path: QWEN_CONFIG, content: json({ mcpServers: { [MCP_SERVER_NAME]: { httpUrl: url, trust: true } } }) }] };
    case "opencode":
      return { args: [], env: {}, files: [{ path: OPENCODE_CONFIG, content: json({ $schema: "https://opencode.ai/config.json", mcp: { [MCP_SERVER_NAME]: { type: "remote", url, enabled: true } } }) }] };
    case "copilot":
      return {
        args: ["--additional-mcp-config", `@${home}/${COPILOT_CONFIG}`],
        env: {},
        files: [{ path: COPILOT_CONFIG, content: json({ mcpServers: { [MCP_SERVER_NAME]: { type: "http", url, tools: ["*"] } } }) }],
      };
    case "kilo":
      return { args: [], env: {}, files: [{ path: KILO_CONFIG, content: json({ mcp: { [MCP_SERVER_NAME]: { type: "remote", url, enabled: true } } }) }] };
    case "cline":
      return { args: [], env: {}, files: [{ path: CLINE_MCP_SETTINGS, content: json({ mcpServers: { [MCP_SERVER_NAME]: { type: "streamableHttp", url, disabled: false } } }) }] };
    case "droid":
      return {
        args: [], env: {}, files: [
          { path: DROID_MCP, content: json({ mcpServers: { [MCP_SERVER_NAME]: { type: "http", url, disabled: false } } }) },
          { path: DROID_LOCAL_SETTINGS, content: json({ blockOnMcpLoad: true }) },
        ],
      };
    case "demo":
      return { args: [], env: {}, files: [] };
    default:
      return null;
  }
}
