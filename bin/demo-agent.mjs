#!/usr/bin/env node
// Ringmaster's demo agent: a deterministic stand-in for a coding-agent CLI, with no model and no
// network, so the whole loop (spawn, stream, edit, commit, merge) can be shown and tested anywhere
// node runs. It reads its prompt on stdin, works in its cwd (the worktree) and prints Claude Code's
// stream-json lines (system/init, assistant text and tool_use, user tool_result, result with a cost
// and token counts of 0), so the UI shows its steps as it would a real agent's.
//
//   node bin/demo-agent.mjs [--model NAME] < prompt.md
//
// Directives in the prompt; everything else is prose and is ignored. They run in order.
//
//   ```file <path>          write (or replace) <path> with the block's content
//   ```append <path>        append the block's content to <path> (created if missing)
//   ```delete <path>        delete <path> (the block's content is ignored)
//   sleep <ms>              wait, to stand in for a long run
//   print <text>            say <text> as an assistant message
//   echo-input              copy the whole prompt to stderr (the run's log), to show what it was given
//   exit <code> [as <role>] exit with <code> once every directive has run; with `as`, only when
//                           the prompt's first `Role: <role>` line names <role> (a campaign's
//                           reflector that fails while its architect and workers succeed)
//   fail-once <path>        the first time: create that marker file, fail and exit 1 at once;
//                           once the marker exists, carry on (for retry tests)
//   usage <in> <out> [<cache-read> <cache-write>]
//                           report one model call's tokens, as Claude Code does on each
//                           assistant message; the result's usage is their sum
//   tool <name> <json>      a tool call with that input, answered "ok"
//   tool-fail <name> <json> a tool call with that input, answered with an error
//   cost <usd>              the result's total_cost_usd (otherwise 0)
//   mcp <tool> <json>       call that tool of Ringmaster's MCP server (RINGMASTER_MCP_URL) with
//                           that input; the tool call and its answer are steps of the run
//   ```answer <role> [at <text>]
//                           the final answer (the result's text) when the prompt's first
//                           `Role: <role>` line names <role> and, with `at`, when <text> appears in
//                           the prompt outside fenced blocks; the first such block wins. Scripts a
//                           campaign's architect (a plan) and reflector (a verdict) in a goal.
//
// A fence may use more than three backticks to hold ``` lines; it closes with a line of at least
// as many. Other fenced blocks (```js, ...) are content, and directives inside them are not run.
// Paths (markers too) are relative to the worktree and must stay inside it, outside .git, also
// once symlinks are followed; a bad path fails the run with exit code 2 before anything is touched. Without `exit`, the run exits 1 when
// an edit or an MCP call failed (e.g. deleting a missing file) and 0 otherwise. Same prompt, same output.
import { createHash } from "node:crypto";
import { appendFileSync, existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, isAbsolute, relative, resolve, sep } from "node:path";

const FENCE = /^(`{3,})\s*(file|append|delete|answer)\s+(\S.*?)\s*$/;
const OTHER_FENCE = /^(`{3,})/;
const LINE = /^(sleep|exit|print|fail-once|usage|tool|tool-fail|cost|mcp)\s+(.+?)\s*$/;

const modelIndex = process.argv.indexOf("--model");
const model = (modelIndex > 0 && process.argv[modelIndex + 1]) || "ringmaster-demo";
const prompt = readPrompt();
const sessionId = uuid("session");
const zeroUsage = { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
let counter = 0;
const total = { ...zeroUsage };
let totalCost = 0;
// Assistant messages so far: the result reports them as num_turns, as Claude Code does.
let turns = 0;

function readPrompt() {
  try {
    return readFileSync(0, "utf8");
  } catch {
    return "";
  }
}

function uuid(salt) {
  const hex = createHash("sha256").update(`${salt}\0${prompt}`).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function emit(message) {
  process.stdout.write(`${JSON.stringify({ ...message, session_id: sessionId, uuid: uuid(`line ${counter++}`) })}\n`);
}

function say(block, usage = zeroUsage) {
  turns++;
  const message = { id: `msg_demo_${counter}`, type: "message", role: "assistant", model, content: [block], stop_reason: null, stop_sequence: null, usage };
  emit({ type: "assistant", message, parent_tool_use_id: null });
}

function finish(code, summary) {
  if (code === 0) say({ type: "text", text: summary });
  emit({
    type: "result",
    subtype: code === 0 ? "success" : "error_during_execution",
    is_error: code !== 0,
    duration_ms: 0,
    duration_api_ms: 0,
    num_turns: turns,
    result: summary,
    stop_reason: "end_turn",
    total_cost_usd: totalCost,
    usage: total,
    modelUsage: {},
    permission_denials: [],
    ...(code === 0 ? {} : { errors: [summary] }),
  });
  // Not process.exit(): on some platforms a pipe is written asynchronously and would lose the tail.
  process.exitCode = code;
}

const answers = [];

// The prompt without its fenced blocks: an `at` condition looks at the prose, not at the scripts.
function prose(text) {
  const out = [];
  let close = null;
  for (const line of text.split(/\r?\n/)) {
    if (close) {
      if (close.test(line)) close = null;
      continue;
    }
    const fence = OTHER_FENCE.exec(line);
    if (fence) close = new RegExp(`^${fence[1]}\`*\\s*$`);
    else out.push(line);
  }
  return out.join("\n");
}

function promptRole() {
  return /^Role:\s*(\S+)/m.exec(prose(prompt))?.[1];
}

function chosenAnswer() {
  const role = promptRole();
  const text = prose(prompt);
  return answers.find((a) => a.role === role && (!a.when || text.includes(a.when)))?.content;
}

function parse(text) {
  const steps = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const fence = FENCE.exec(lines[i]) ?? OTHER_FENCE.exec(lines[i]);
    if (fence) {
      const close = new RegExp(`^${fence[1]}\`*\\s*$`);
      const body = [];
      for (i++; i < lines.length && !close.test(lines[i]); i++) body.push(lines[i]);
      if (i >= lines.length && fence[2]) throw new Error(`the \`${fence[2]} ${fence[3]}\` block is never closed`);
      if (fence[2] === "answer") {
        const [, role, when] = /^(\S+)(?:\s+at\s+(.+))?$/.exec(fence[3]);
        answers.push({ role, when, content: body.join("\n") });
      } else if (fence[2]) steps.push({ kind: fence[2], path: fence[3], content: body.length > 0 ? `${body.join("\n")}\n` : "" });
      continue;
    }
    if (lines[i].trim() === "echo-input") {
      steps.push({ kind: "echo-input" });
      continue;
    }
    const line = LINE.exec(lines[i].trim());
    if (!line) continue;
    const [, kind, arg] = line;
    if (kind === "sleep" && !/^\d+$/.test(arg)) continue;
    if (kind === "exit") {
      const exit = /^(\d+)(?:\s+as\s+(\S+))?$/.exec(arg);
      if (exit) steps.push({ kind, arg: exit[1], role: exit[2] });
      continue;
    }
    if (kind === "usage" && !/^\d+(\s+\d+){1,3}$/.test(arg)) continue;
    if (kind === "cost" && !/^\d+(\.\d+)?$/.test(arg)) continue;
    steps.push({ kind, arg });
  }
  return steps;
}

// A symlink in the worktree (an agent or the repository may have made it) must not lead a write
// outside: the deepest existing ancestor of the target is resolved, a dangling link followed too.
function realTarget(target, hops = 0) {
  if (hops > 40) throw new Error(`"${target}" has too many levels of symbolic links`);
  const rest = [];
  let existing = target;
  for (;;) {
    try {
      if (lstatSync(existing).isSymbolicLink() && !existsSync(existing)) {
        return realTarget(resolve(dirname(existing), readlinkSync(existing), ...rest), hops + 1);
      }
      return resolve(realpathSync(existing), ...rest);
    } catch (error) {
      if (error.code !== "ENOENT") throw error;
      rest.unshift(basename(existing));
      existing = dirname(existing);
    }
  }
}

function check(step, root) {
  const path = step.kind === "fail-once" ? step.arg : step.path;
  if (!path) return;
  if (isAbsolute(path)) throw new Error(`"${path}" is absolute, outside the worktree; paths are relative to it`);
  for (const [base, target] of [[root, resolve(root, path)], [realpathSync(root), realTarget(resolve(root, path))]]) {
    const inside = relative(base, target);
    if (inside === "" || inside === ".." || inside.startsWith(`..${sep}`) || isAbsolute(inside)) throw new Error(`"${path}" is outside the worktree`);
    if (inside.split(sep)[0] === ".git") throw new Error(`"${path}" is inside .git`);
  }
}

function edit(step, root) {
  const target = resolve(root, step.path);
  if (step.kind === "delete") {
    if (!existsSync(target)) throw new Error(`${step.path} does not exist`);
    rmSync(target, { recursive: true });
    return `Deleted ${step.path}`;
  }
  mkdirSync(dirname(target), { recursive: true });
  if (step.kind === "file") writeFileSync(target, step.content);
  else appendFileSync(target, step.content);
  return `${step.kind === "file" ? "Wrote" : "Appended"} ${Buffer.byteLength(step.content)} bytes to ${step.path}`;
}

function reportUsage(arg) {
  const [input, output, cacheRead = 0, cacheWrite = 0] = arg.split(/\s+/).map(Number);
  const usage = { input_tokens: input, output_tokens: output, cache_read_input_tokens: cacheRead, cache_creation_input_tokens: cacheWrite };
  for (const key of Object.keys(total)) total[key] += usage[key];
  say({ type: "text", text: `Used ${input + cacheRead + cacheWrite} input and ${output} output tokens.` }, usage);
}

let calls = 0;
function callTool(fails, arg) {
  const [, name, json] = /^(\S+)\s*(.*)$/.exec(arg);
  let input;
  try {
    input = json ? JSON.parse(json) : {};
  } catch {
    input = { text: json };
  }
  const id = `toolu_demo_call_${String(++calls).padStart(2, "0")}`;
  say({ type: "tool_use", id, name, input });
  const content = fails ? "exit code 1: command failed" : "ok";
  emit({ type: "user", message: { role: "user", content: [{ type: "tool_result", tool_use_id: id, content, is_error: fails }] }, parent_tool_use_id: null });
}

// Streamable HTTP with JSON answers, as Ringmaster's endpoint gives them: one POST per message.
let rpcId = 0;
async function mcpRequest(method, params) {
  const res = await fetch(process.env.RINGMASTER_MCP_URL, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: ++rpcId, method, params }),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`HTTP ${res.status}: ${text}`);
  const answer = JSON.parse(text);
  if (answer.error) throw new Error(answer.error.message);
  return answer.result;
}

let mcpReady = false;
async function callMcp(arg) {
  const [, name, json] = /^(\S+)\s*(.*)$/.exec(arg);
  let input;
  try {
    input = json ? JSON.parse(json) : {};
  } catch {
    input = { text: json };
  }
  const id = `toolu_demo_mcp_${String(++calls).padStart(2, "0")}`;
  say({ type: "tool_use", id, name: `mcp__ringmaster__${name}`, input });
  let output;
  let isError = false;
  try {
    if (!process.env.RINGMASTER_MCP_URL) throw new Error("no MCP server: RINGMASTER_MCP_URL is not set");
    if (!mcpReady) await mcpRequest("initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "ringmaster-demo-agent", version: "1.0.0" } });
    mcpReady = true;
    const result = await mcpRequest("tools/call", { name, arguments: input });
    output = result.content.map((c) => c.text ?? "").join("");
    isError = result.isError === true;
  } catch (error) {
    output = error.message;
    isError = true;
  }
  emit({ type: "user", message: { role: "user", content: [{ type: "tool_result", tool_use_id: id, content: output, is_error: isError }] }, parent_tool_use_id: null });
  return !isError;
}

const TOOL = { file: "Write", append: "Append", delete: "Delete" };

async function main() {
  const root = process.cwd();
  emit({ type: "system", subtype: "init", tools: Object.values(TOOL), mcp_servers: [], model, permissionMode: "acceptEdits", apiKeySource: "none", slash_commands: [], output_style: "default", skills: [], plugins: [] });
  let steps;
  try {
    steps = parse(prompt);
    for (const step of steps) check(step, root);
  } catch (error) {
    process.stderr.write(`demo-agent: ${error.message}\n`);
    return finish(2, `Refused: ${error.message}`);
  }
  let exitCode;
  let edits = 0;
  let failures = 0;
  let mcpFailures = 0;
  for (const step of steps) {
    if (step.kind === "print") say({ type: "text", text: step.arg });
    else if (step.kind === "echo-input") process.stderr.write(prompt.endsWith("\n") ? prompt : `${prompt}\n`);
    else if (step.kind === "usage") reportUsage(step.arg);
    else if (step.kind === "cost") totalCost = Number(step.arg);
    else if (step.kind === "tool" || step.kind === "tool-fail") callTool(step.kind === "tool-fail", step.arg);
    else if (step.kind === "mcp") mcpFailures += (await callMcp(step.arg)) ? 0 : 1;
    else if (step.kind === "sleep") await new Promise((done) => setTimeout(done, Number(step.arg)));
    else if (step.kind === "exit") {
      if (!step.role || step.role === promptRole()) exitCode = Number(step.arg);
    }
    else if (step.kind === "fail-once") {
      const marker = resolve(root, step.arg);
      if (existsSync(marker)) continue;
      mkdirSync(dirname(marker), { recursive: true });
      writeFileSync(marker, "failed once\n");
      return finish(1, `Failing the first attempt on purpose (marker ${step.arg})`);
    } else {
      const id = `toolu_demo_${String(++edits).padStart(2, "0")}`;
      say({ type: "tool_use", id, name: TOOL[step.kind], input: { file_path: step.path, ...(step.kind === "delete" ? {} : { content: step.content }) } });
      let output;
      let isError = false;
      try {
        output = edit(step, root);
      } catch (error) {
        output = error.code ? `${step.path}: ${error.code}` : error.message;
        isError = true;
        failures++;
      }
      emit({ type: "user", message: { role: "user", content: [{ type: "tool_result", tool_use_id: id, content: output, is_error: isError }] }, parent_tool_use_id: null });
    }
  }
  const code = exitCode ?? (failures + mcpFailures > 0 ? 1 : 0);
  const done = `Done: ${edits - failures} of ${edits} edit${edits === 1 ? "" : "s"} applied.`;
  const answer = chosenAnswer();
  finish(code, code !== 0 ? `${done} Exiting with code ${code}.` : answer ?? done);
}

await main();
