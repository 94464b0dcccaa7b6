import { createServer, type Server } from "node:http";

export type GeminiUsage = { prompt: number; cached: number; candidates: number; thoughts: number };

const STATUS: Record<number, string> = { 400: "INVALID_ARGUMENT", 429: "RESOURCE_EXHAUSTED" };

type Part = { text?: string; functionCall?: unknown; functionResponse?: unknown };

/**
 * A local stand-in for the Gemini API's streamGenerateContent (SSE, as Gemini CLI calls it):
 * the first turn asks for one `write_file` call (or, with `mcp`, a call of the declared tool
 * whose name ends with that MCP tool's), the turn after its functionResponse ends the run with
 * `answer`, each turn with `usage`. `failWith` answers every request with that HTTP status
 * instead; `hang` keeps the stream open without a chunk. `state` keeps the declared tool names
 * and the function responses the CLI sent back.
 */
export async function startGeminiDouble(host: string, script: {
  write: () => { file_path: string; content: string };
  mcp?: { tool: string; args: Record<string, unknown> };
  answer: string;
  usage: GeminiUsage;
}) {
  const state = { requests: [] as string[], prompts: [] as string[], tools: [] as string[], responses: [] as unknown[], failWith: 0, hang: false };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      state.requests.push(`${req.method} ${req.url}`);
      if (req.method !== "POST" || !req.url?.includes(":streamGenerateContent")) return res.writeHead(404).end("{}");
      if (state.failWith) {
        return res.writeHead(state.failWith, { "content-type": "application/json" })
          .end(JSON.stringify({ error: { code: state.failWith, message: `double says ${state.failWith}`, status: STATUS[state.failWith] ?? "INTERNAL" } }));
      }
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { contents: { role: string; parts: Part[] }[]; tools?: { functionDeclarations?: { name: string }[] }[] };
      state.tools = (body.tools ?? []).flatMap((t) => t.functionDeclarations ?? []).map((d) => d.name);
      state.responses.push(...body.contents.flatMap((c) => c.parts).filter((p) => p.functionResponse).map((p) => p.functionResponse));
      state.prompts.push(body.contents.filter((c) => c.role === "user").flatMap((c) => c.parts).map((p) => p.text ?? "").join("\n"));
      res.writeHead(200, { "content-type": "text/event-stream" });
      if (state.hang) return;
      const answered = body.contents.some((c) => c.parts.some((p) => p.functionResponse));
      const u = script.usage;
      const usageMetadata = { promptTokenCount: u.prompt, cachedContentTokenCount: u.cached, candidatesTokenCount: u.candidates, thoughtsTokenCount: u.thoughts, totalTokenCount: u.prompt + u.candidates + u.thoughts };
      const mcpName = script.mcp && state.tools.find((name) => name.endsWith(`_${script.mcp!.tool}`));
      const call = script.mcp ? { name: mcpName ?? `(no ${script.mcp.tool} declared)`, args: script.mcp.args } : { name: "write_file", args: script.write() };
      const parts = answered ? [{ text: script.answer }] : [{ functionCall: call }];
      const chunk = { candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }], usageMetadata, modelVersion: "gemini-2.5-pro", responseId: `r${state.requests.length}` };
      res.end(`data: ${JSON.stringify(chunk)}\r\n\r\n`);
    });
  });
  await new Promise<void>((r) => server.listen(0, host, r));
  const url = `http://${host}:${(server.address() as { port: number }).port}`;
  return { url, state, stop: () => new Promise((r) => { server.closeAllConnections(); server.close(r); }) };
}
