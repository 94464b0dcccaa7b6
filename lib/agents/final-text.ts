import type { AgentEvent } from "@/lib/agents/types";

/**
 * The agent's last words: the text it wrote after its last tool call. Codex and Gemini end
 * with a result that carries no summary; this is what their run reports instead.
 */
export class FinalText {
  private text = "";
  private afterTool = false;

  observe(event: AgentEvent): void {
    if (event.type === "tool_use" || event.type === "tool_result") {
      this.afterTool = true;
    } else if (event.type === "text") {
      // Deltas continue one message; a whole message, or the first text after a tool, starts anew.
      this.text = event.delta && !this.afterTool ? this.text + event.text : event.text;
      this.afterTool = false;
    }
  }

  /** The result with the final text as its summary when the CLI gave none. */
  fill<E extends AgentEvent>(event: E): E {
    if (event.type !== "result" || event.summary || !this.text.trim()) return event;
    return { ...event, summary: this.text.trim() };
  }
}
