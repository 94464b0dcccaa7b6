import { createServer, type Server } from "node:http";

type Event = [string, unknown];

/**
 * A local stand-in for the Anthropic Messages API (streaming SSE, as Claude Code calls it):
 * the first turn asks for one tool call (Write unless `tool` names another, e.g. an MCP tool
 * `mcp__server__name`), the turn after its tool result ends the run. `bodies` keeps each
 * request's JSON, so a test can read the tool result the CLI sent back.
 */
export async function startMessagesDouble(host: string, write: () => object, tool: () => string = () => "Write") {
  const requests: string[] = [];
  const bodies: unknown[] = [];
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => { body += c; });
    req.on("end", () => {
      requests.push(`${req.method} ${req.url}`);
      if (!req.url?.startsWith("/v1/messages")) return res.writeHead(404).end("{}");
      const parsed = JSON.parse(body || "{}") as { model?: string; messages?: unknown[] };
      bodies.push(parsed);
      const usage = { input_tokens: 10, output_tokens: 5 };
      const block = JSON.stringify(parsed.messages ?? []).includes("tool_result")
        ? [{ type: "text", text: "" }, { type: "text_delta", text: "Done." }, "end_turn"] as const
        : [{ type: "tool_use", id: "toolu_1", name: tool(), input: {} }, { type: "input_json_delta", partial_json: JSON.stringify(write()) }, "tool_use"] as const;
      const events: Event[] = [
        ["message_start", { type: "message_start", message: { id: "msg_1", type: "message", role: "assistant", model: parsed.model, content: [], stop_reason: null, usage } }],
        ["content_block_start", { type: "content_block_start", index: 0, content_block: block[0] }],
        ["content_block_delta", { type: "content_block_delta", index: 0, delta: block[1] }],
        ["content_block_stop", { type: "content_block_stop", index: 0 }],
        ["message_delta", { type: "message_delta", delta: { stop_reason: block[2] }, usage }],
        ["message_stop", { type: "message_stop" }],
      ];
      res.writeHead(200, { "content-type": "text/event-stream" });
      for (const [event, data] of events) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, host, r));
  const url = `http://${host}:${(server.address() as { port: number }).port}`;
  return { url, requests, bodies, stop: () => new Promise((r) => server.close(r)) };
}
