import { createServer, type Server } from "node:http";

type Event = [string, unknown];

export type ToolCall = { name: string; input: unknown };

/**
 * A local stand-in for the Anthropic Messages API (streaming SSE, as Claude Code calls it):
 * the first turn asks for the tool call `tool()` gives, the turn after its tool result ends the run.
 * `prompts` holds the text of each request's first user message, `models` each request's model,
 * `bodies` each request's JSON (a test reads the tool result the CLI sent back).
 * `control.failWith` answers every request with that HTTP status and an Anthropic error body;
 * `control.hang` keeps the stream open without an event.
 */
export async function startMessagesDouble(host: string, tool: () => ToolCall) {
  const requests: string[] = [];
  const prompts: string[] = [];
  const models: string[] = [];
  const bodies: unknown[] = [];
  const control = { failWith: 0, hang: false };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      // Decoded whole: a chunk boundary can fall inside a multi-byte character.
      const body = Buffer.concat(chunks).toString("utf8");
      requests.push(`${req.method} ${req.url}`);
      if (!req.url?.startsWith("/v1/messages")) return res.writeHead(404).end("{}");
      if (control.failWith) {
        const type = control.failWith === 529 ? "overloaded_error" : control.failWith === 429 ? "rate_limit_error" : "api_error";
        return res.writeHead(control.failWith, { "content-type": "application/json" }).end(JSON.stringify({ type: "error", error: { type, message: `double says ${control.failWith}` } }));
      }
      const parsed = JSON.parse(body || "{}") as { model?: string; messages?: { content: unknown }[] };
      prompts.push(firstText(parsed.messages?.[0]?.content));
      models.push(parsed.model ?? "");
      bodies.push(parsed);
      const usage = { input_tokens: 10, output_tokens: 5 };
      const block = JSON.stringify(parsed.messages ?? []).includes("tool_result")
        ? [{ type: "text", text: "" }, { type: "text_delta", text: "Done." }, "end_turn"] as const
        : toolBlock(tool());
      const events: Event[] = [
        ["message_start", { type: "message_start", message: { id: "msg_1", type: "message", role: "assistant", model: parsed.model, content: [], stop_reason: null, usage } }],
        ["content_block_start", { type: "content_block_start", index: 0, content_block: block[0] }],
        ["content_block_delta", { type: "content_block_delta", index: 0, delta: block[1] }],
        ["content_block_stop", { type: "content_block_stop", index: 0 }],
        ["message_delta", { type: "message_delta", delta: { stop_reason: block[2] }, usage }],
        ["message_stop", { type: "message_stop" }],
      ];
      res.writeHead(200, { "content-type": "text/event-stream" });
      if (control.hang) return;
      for (const [event, data] of events) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, host, r));
  const url = `http://${host}:${(server.address() as { port: number }).port}`;
  return { url, requests, prompts, models, bodies, control, stop: () => new Promise((r) => { server.closeAllConnections(); server.close(r); }) };
}

function toolBlock({ name, input }: ToolCall) {
  return [{ type: "tool_use", id: "toolu_1", name, input: {} }, { type: "input_json_delta", partial_json: JSON.stringify(input) }, "tool_use"] as const;
}

// Claude Code sends the prompt as text blocks (after blocks of its own context) or as a string.
function firstText(content: unknown): string {
  if (typeof content === "string") return content;
  return Array.isArray(content) ? content.map((b: { text?: string }) => b.text ?? "").join("\n") : "";
}
