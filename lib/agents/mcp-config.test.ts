import { describe, expect, it } from "vitest";
import { mcpWiring } from "@/lib/agents/mcp-config";

const URL = "http://127.0.0.1:3129/mcp";

describe("mcpWiring", () => {
  it("gives Claude Code a per-run config file through --mcp-config, strict, with the server's tools allowed", () => {
    const w = mcpWiring("claude", URL, "/home/agent")!;
    expect(w.args).toEqual(["--mcp-config", "/home/agent/.ringmaster/mcp.json", "--strict-mcp-config", "--allowedTools", "mcp__ringmaster"]);
    expect(w.files).toEqual([{ path: ".ringmaster/mcp.json", content: '{\n  "mcpServers": {\n    "ringmaster": {\n      "type": "http",\n      "url": "http://127.0.0.1:3129/mcp"\n    }\n  }\n}\n' }]);
    expect(w.env).toEqual({});
  });

  it("gives Codex -c overrides holding TOML strings (the server, its tools approved), and writes no file", () => {
    expect(mcpWiring("codex", URL, "/home/agent")).toEqual({
      args: ["-c", 'mcp_servers.ringmaster.url="http://127.0.0.1:3129/mcp"', "-c", 'mcp_servers.ringmaster.default_tools_approval_mode="approve"'],
      env: {},
      files: [],
    });
  });

  it("gives Gemini CLI a settings.json in the run's own HOME with a trusted Streamable HTTP server", () => {
    const w = mcpWiring("gemini", URL, "/home/agent")!;
    expect(w.args).toEqual([]);
    expect(w.files.map((f) => [f.path, JSON.parse(f.content)])).toEqual([[".gemini/settings.json", { mcpServers: { ringmaster: { httpUrl: URL, trust: true } } }]]);
  });

  it("gives Qwen Code --mcp-config with a file in the run's HOME, Copilot --additional-mcp-config @file, opencode its global config there", () => {
    const qwen = mcpWiring("qwen", URL, "/home/agent")!;
    expect(qwen.args).toEqual(["--mcp-config", "/home/agent/.ringmaster/qwen-mcp.json"]);
    expect(qwen.files.map((f) => [f.path, JSON.parse(f.content)])).toEqual([[".ringmaster/qwen-mcp.json", { mcpServers: { ringmaster: { httpUrl: URL, trust: true } } }]]);
    const copilot = mcpWiring("copilot", URL, "/home/agent")!;
    expect(copilot.args).toEqual(["--additional-mcp-config", "@/home/agent/.ringmaster/copilot-mcp.json"]);
    expect(copilot.files.map((f) => [f.path, JSON.parse(f.content)])).toEqual([[".ringmaster/copilot-mcp.json", { mcpServers: { ringmaster: { type: "http", url: URL, tools: ["*"] } } }]]);
    const opencode = mcpWiring("opencode", URL, "/home/agent")!;
    expect(opencode.args).toEqual([]);
    expect(opencode.files.map((f) => [f.path, JSON.parse(f.content)])).toEqual([
      [".config/opencode/opencode.json", { $schema: "https://opencode.ai/config.json", mcp: { ringmaster: { type: "remote", url: URL, enabled: true } } }],
    ]);
  });

  it("gives Kilo Code, Cline and Factory Droid a file each in the run's HOME where they read their MCP servers, and no flag", () => {
    const files = (adapter: string) => { const w = mcpWiring(adapter, URL, "/home/agent")!; expect(w.args).toEqual([]); return w.files.map((f) => [f.path, JSON.parse(f.content)]); };
    expect(files("kilo")).toEqual([[".config/kilo/kilo.json", { mcp: { ringmaster: { type: "remote", url: URL, enabled: true } } }]]);
    // Droid's local settings make it connect the server before its first model request.
    expect(files("droid")).toEqual([
      [".factory/mcp.json", { mcpServers: { ringmaster: { type: "http", url: URL, disabled: false } } }],
      [".factory/settings.local.json", { blockOnMcpLoad: true }],
    ]);
    expect(files("cline")).toEqual([[".cline/data/settings/cline_mcp_settings.json", { mcpServers: { ringmaster: { type: "streamableHttp", url: URL, disabled: false } } }]]);
  });

  it("leaves the demo agent to its environment and gives CLIs without MCP nothing", () => {
    expect(mcpWiring("demo", URL, "/home/agent")).toEqual({ args: [], env: {}, files: [] });
    expect(mcpWiring("aider", URL, "/home/agent")).toBeNull();
    expect(mcpWiring("shell", URL, "/home/agent")).toBeNull();
    // pi has no MCP client.
    expect(mcpWiring("pi", URL, "/home/agent")).toBeNull();
  });
});
