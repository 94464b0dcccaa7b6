import { createServer, type Server } from "node:http";

export type ResponsesUsage = { input: number; cached: number; output: number; reasoning: number };

/**
 * A local stand-in for OpenAI's Responses API (streaming SSE, as Codex calls it): the first
 * turn asks for one `exec_command` call running `command`, the turn after its output ends the
 * run with `answer`. Each turn reports `usage`. `failWith` answers every request with that
 * HTTP status instead; `hang` keeps the stream open without an event.
 */
export async function startResponsesDouble(host: string, script: { command: () => string; answer: string; usage: ResponsesUsage }) {
  const state = { requests: [] as string[], prompts: [] as string[], failWith: 0, hang: false };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      state.requests.push(`${req.method} ${req.url}`);
      if (req.method !== "POST" || !req.url?.endsWith("/responses")) return res.writeHead(404).end("{}");
      if (state.failWith) {
        return res.writeHead(state.failWith, { "content-type": "application/json" })
          .end(JSON.stringify({ error: { message: `double says ${state.failWith}`, type: "server_error", code: null } }));
      }
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { model: string; input: { type: string; role?: string; content?: { text?: string }[] }[] };
      state.prompts.push(body.input.filter((i) => i.role === "user").flatMap((i) => i.content ?? []).map((c) => c.text ?? "").join("\n"));
      res.writeHead(200, { "content-type": "text/event-stream" });
      if (state.hang) return;
      const id = `resp_${state.requests.length}`;
      const item = body.input.some((i) => i.type === "function_call_output")
        ? { type: "message", id: `msg_${id}`, role: "assistant", status: "completed", content: [{ type: "output_text", text: script.answer, annotations: [] }] }
        : { type: "function_call", id: `fc_${id}`, call_id: `call_${id}`, status: "completed", name: "exec_command", arguments: JSON.stringify({ cmd: script.command(), login: false }) };
      const u = script.usage;
      const usage = { input_tokens: u.input, input_tokens_details: { cached_tokens: u.cached }, output_tokens: u.output, output_tokens_details: { reasoning_tokens: u.reasoning }, total_tokens: u.input + u.output };
      const response = { id, object: "response", model: body.model, status: "in_progress", output: [] as unknown[] };
      const events: [string, unknown][] = [
        ["response.created", { type: "response.created", sequence_number: 0, response }],
        ["response.output_item.added", { type: "response.output_item.added", sequence_number: 1, output_index: 0, item: { ...item, status: "in_progress" } }],
        ["response.output_item.done", { type: "response.output_item.done", sequence_number: 2, output_index: 0, item }],
        ["response.completed", { type: "response.completed", sequence_number: 3, response: { ...response, status: "completed", output: [item], usage } }],
      ];
      for (const [event, data] of events) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, host, r));
  const url = `http://${host}:${(server.address() as { port: number }).port}/v1`;
  return { url, state, stop: () => new Promise((r) => { server.closeAllConnections(); server.close(r); }) };
}
