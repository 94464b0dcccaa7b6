export type OutputStream = "stdout" | "stderr";

/**
 * What an adapter reads out of an agent's output. A result's tokens are the same quantities
 * for every CLI (lib/agents/README.md): input includes cached input, `cacheReadTokens` is the
 * cached part, and output includes reasoning (thinking) tokens.
 */
export type AgentEvent =
  /**
   * What the CLI says of its session: the model and the session id, as soon as it names them. Some
   * CLIs name them over several events (Copilot's session id comes with its result); the later
   * ones only add what the first left out.
   */
  | { type: "init"; model?: string; sessionId?: string }
  | { type: "text"; text: string; delta?: boolean }
  | { type: "tool_use"; id: string; name: string; input: unknown }
  | { type: "tool_result"; toolUseId: string; output: string; isError: boolean }
  | {
      type: "result";
      ok: boolean;
      summary?: string;
      costUsd?: number;
      inputTokens?: number;
      /** The part of `inputTokens` read from the provider's prompt cache. */
      cacheReadTokens?: number;
      outputTokens?: number;
      /** The model turns the CLI counted for the whole run (Claude's num_turns). */
      turns?: number;
      /** Tools whose calls the CLI's permission mode refused, one name per refused call. */
      deniedTools?: string[];
    }
  | { type: "log"; text: string }
  /**
   * Tokens of one model call as far as it has gone; a later event with the same `messageId`
   * replaces it. `inputTokens` here excludes the cached tokens counted apart.
   */
  | {
      type: "usage";
      messageId: string;
      model?: string;
      inputTokens: number;
      outputTokens: number;
      cacheReadTokens: number;
      cacheWriteTokens: number;
    };

export type ResultEvent = Extract<AgentEvent, { type: "result" }>;

export type BuildContext = {
  prompt: string;
  model?: string;
  /** The `shell` adapter's command; other adapters ignore it. */
  commandTemplate?: string;
  worktree: string;
  extraArgs?: string[];
  /** One of the adapter's `PERMISSION_MODES`; unset: its default. */
  permissionMode?: string;
};

export type AgentCommand = {
  command: string;
  args: string[];
  stdin?: string;
  /** Run `command` through /bin/sh -c (args are then appended to it unquoted, so leave them empty). */
  shell?: boolean;
  /** The CLI a shell line runs, looked for on PATH before it starts. */
  program?: string;
};

export type AgentAdapter = {
  name: string;
  build(ctx: BuildContext): AgentCommand;
  /** One line of stdout (runAgent keeps stderr lines as log lines without asking the adapter). */
  parseLine(line: string, stream: OutputStream): AgentEvent[];
  /**
   * The CLI ends every run it finished with a result line: an exit 0 without one is a failure
   * (droid exits 0 with none once its retries of a model API error are spent).
   */
  resultRequired?: boolean;
};
