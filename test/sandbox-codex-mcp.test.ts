import { createServer, type Server } from "node:http";
import { networkInterfaces } from "node:os";
import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { cachedCli, CLI_CACHE } from "./helpers/agent-cli-cache";
import { addPrompt, createTeamWithProject } from "./helpers/fixtures";
import { tickAndRun } from "./helpers/run-once";

const cli = await cachedCli("@openai/codex", "0.169.0");
const otherHost = Object.values(networkInterfaces()).flat().find((i) => i && i.family === "IPv4" && !i.internal)?.address;

/**
 * A stand-in for OpenAI's Responses API (streaming SSE): the first turn calls Ringmaster's
 * `report_progress` where the request offers it, the turn after its output ends the run.
 * `seen` keeps what the test asserts on.
 */
const seen = { tools: [] as string[], outputs: [] as string[] };
const server: Server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    if (req.method !== "POST" || !req.url?.endsWith("/responses")) return res.writeHead(404).end("{}");
    type Tool = { type: string; name?: string; tools?: Tool[] };
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { model: string; tools?: Tool[]; input: { type: string; output?: unknown }[] };
    // Codex offers each MCP server's tools as a namespace `mcp__<server>`.
    const namespace = (body.tools ?? []).find((t) => t.type === "namespace" && t.name === "mcp__ringmaster");
    const tool = namespace?.tools?.some((t) => t.name === "report_progress") ? "report_progress" : undefined;
    if (tool) seen.tools.push(tool);
    const output = body.input.find((i) => i.type === "function_call_output");
    if (output) seen.outputs.push(typeof output.output === "string" ? output.output : JSON.stringify(output.output));
    const id = `resp_${seen.tools.length}_${seen.outputs.length}`;
    const item = output || !tool
      ? { type: "message", id: `msg_${id}`, role: "assistant", status: "completed", content: [{ type: "output_text", text: "Reported.", annotations: [] }] }
      : { type: "function_call", id: `fc_${id}`, call_id: `call_${id}`, status: "completed", namespace: "mcp__ringmaster", name: tool, arguments: JSON.stringify({ text: "codex is halfway, via MCP" }) };
    const usage = { input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 15 };
    const response = { id, object: "response", model: body.model, status: "in_progress", output: [] as unknown[] };
    res.writeHead(200, { "content-type": "text/event-stream" });
    for (const [event, data] of [
      ["response.created", { type: "response.created", sequence_number: 0, response }],
      ["response.output_item.added", { type: "response.output_item.added", sequence_number: 1, output_index: 0, item: { ...item, status: "in_progress" } }],
      ["response.output_item.done", { type: "response.output_item.done", sequence_number: 2, output_index: 0, item }],
      ["response.completed", { type: "response.completed", sequence_number: 3, response: { ...response, status: "completed", output: [item], usage } }],
    ] as const) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    res.end();
  });
});
if (otherHost) await new Promise<void>((r) => server.listen(0, otherHost, r));
afterAll(() => new Promise((r) => { server.closeAllConnections(); server.close(r); }));

if ("bin" in cli && otherHost) {
  // As an operator would: the CLI's folder readable in the sandbox, on the agents' PATH.
  Object.assign(process.env, { SANDBOX_READ_ONLY_PATHS: CLI_CACHE, PATH: `${cli.bin}:${process.env.PATH}`, DOUBLE_API_KEY: "sk-test" });
}

describe.skipIf("skip" in cli || !otherHost)("the real Codex CLI talks to Ringmaster over MCP from its sandbox", () => {
  it("its report_progress call (approved up front) lands as a worker turn in the prompt's thread", async () => {
    const { team, project } = await createTeamWithProject({ cooldownMs: 0 });
    const url = `http://${otherHost}:${(server.address() as { port: number }).port}/v1`;
    // A provider of its own through the profile's extra arguments, as a team would configure one.
    const provider = ["model_provider=\"double\"", "model_providers.double.name=\"double\"", `model_providers.double.base_url="${url}"`,
      "model_providers.double.env_key=\"DOUBLE_API_KEY\"", "model_providers.double.wire_api=\"responses\"",
      "model_providers.double.request_max_retries=0", "model_providers.double.stream_max_retries=0"].flatMap((c) => ["-c", c])
      // A model Codex knows gets plain function tools; for an unknown one it nests them in a code tool.
      .concat(["--model", "gpt-5"]);
    const codex = await getDb().agentProfile.create({ data: { teamId: team.id, name: "codex", adapter: "codex", envAllowList: ["DOUBLE_API_KEY"], extraArgs: provider } });
    await getDb().projectSettings.update({ where: { projectId: project.id }, data: { executorProfileId: codex.id, networkMode: "allow-list", egressRules: [otherHost!] } });
    await addPrompt(project.id, { number: 1, title: "Report in", body: "Say how it goes." });

    const { run } = await tickAndRun(project.id);
    const log = (await getDb().runLog.findMany({ where: { runId: run!.id }, orderBy: { seq: "asc" } })).map((l) => l.content).join("\n");
    expect(run!.status, log).toBe("succeeded");
    expect(seen.tools[0]).toBe("report_progress");
    // The call output is the tool's JSON answer, quoted inside Codex's own JSON.
    expect(seen.outputs.at(-1)).toContain(String.raw`{\"seq\":1,\"status\":\"sent\"}`);
    const thread = await getDb().thread.findUniqueOrThrow({ where: { promptId: run!.promptId! }, include: { turns: true } });
    expect(thread.turns.map((t) => [t.actor, t.action, t.actorId, t.content])).toEqual([["worker", "progress", run!.id, "codex is halfway, via MCP"]]);
  }, 120_000);
});
