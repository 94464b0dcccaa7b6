import { createServer, type Server } from "node:http";

export type ChatUsage = { prompt: number; cached: number; completion: number; reasoning: number };

type Message = { role: string; content?: string | { type: string; text?: string }[] | null; tool_calls?: unknown[] };
type Body = { model: string; messages: Message[]; tools?: { function?: { name: string } }[] };

export type ChatScript = {
  /** The one tool call of the first turn, by the CLI's own tool names (offered in `tools`). */
  call: (tools: string[]) => { name: string; arguments: Record<string, unknown> };
  answer: string;
  usage: ChatUsage;
};

function text(content: Message["content"]): string {
  if (typeof content === "string") return content;
  return (content ?? []).map((part) => part.text ?? "").join("\n");
}

/**
 * A local stand-in for an OpenAI-compatible Chat Completions API (streaming SSE, as opencode,
 * Qwen Code, pi and the other OpenAI-compatible CLIs call it): the first turn asks for one tool
 * call, the turn after its `tool` message ends the run with `answer`; each turn ends with a
 * usage chunk. `failWith` answers every request with that HTTP status instead; `hang` keeps the
 * stream open without a chunk.
 */
export async function startChatDouble(host: string, script: ChatScript) {
  const state = {
    requests: [] as string[], prompts: [] as string[], tools: [] as string[][], failWith: 0, hang: false,
    /** The error body's `type` ("server_error" makes opencode retry even a 4xx: it reads the body). */
    errorType: "server_error",
    /** Sent as `retry-after-ms` with an error, when set: how long a CLI that honours it waits. */
    retryAfterMs: null as number | null,
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      state.requests.push(`${req.method} ${req.url}`);
      if (req.method !== "POST" || !req.url?.endsWith("/chat/completions")) return res.writeHead(404).end("{}");
      if (state.failWith) {
        const headers = { "content-type": "application/json", ...(state.retryAfterMs === null ? {} : { "retry-after-ms": String(state.retryAfterMs) }) };
        return res.writeHead(state.failWith, headers)
          .end(JSON.stringify({ error: { message: `double says ${state.failWith}`, type: state.errorType, code: null } }));
      }
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Body;
      const tools = (body.tools ?? []).map((t) => t.function?.name ?? "");
      state.tools.push(tools);
      state.prompts.push(body.messages.filter((m) => m.role === "user").map((m) => text(m.content)).join("\n"));
      res.writeHead(200, { "content-type": "text/event-stream" });
      if (state.hang) return;
      const n = state.requests.length;
      const base = { id: `chatcmpl-${n}`, object: "chat.completion.chunk", created: 1_790_000_000, model: body.model };
      const answered = body.messages.some((m) => m.role === "tool");
      const call = answered ? null : script.call(tools);
      const delta = call
        ? { role: "assistant", content: null, tool_calls: [{ index: 0, id: `call_${n}`, type: "function", function: { name: call.name, arguments: JSON.stringify(call.arguments) } }] }
        : { role: "assistant", content: script.answer };
      const u = script.usage;
      const usage = {
        prompt_tokens: u.prompt, completion_tokens: u.completion, total_tokens: u.prompt + u.completion,
        prompt_tokens_details: { cached_tokens: u.cached }, completion_tokens_details: { reasoning_tokens: u.reasoning },
      };
      const events = [
        { ...base, choices: [{ index: 0, delta, finish_reason: null }] },
        { ...base, choices: [{ index: 0, delta: {}, finish_reason: call ? "tool_calls" : "stop" }] },
        { ...base, choices: [], usage },
      ];
      for (const event of events) res.write(`data: ${JSON.stringify(event)}\n\n`);
      res.end("data: [DONE]\n\n");
    });
  });
  await new Promise<void>((r) => server.listen(0, host, r));
  const url = `http://${host}:${(server.address() as { port: number }).port}/v1`;
  return { url, state, stop: () => new Promise((r) => { server.closeAllConnections(); server.close(r); }) };
}
