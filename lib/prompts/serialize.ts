import { Document, type YAMLSeq } from "yaml";
import type { PromptFile } from "@/lib/prompts/schema";

export function serializePromptFile(prompt: PromptFile): string {
  const { body, number, title, status, priority, dependencies } = prompt;
  const doc = new Document({ number, title, status, priority, dependencies });
  // Flow style keeps the dependency list on one line, as people write it by hand.
  (doc.get("dependencies", true) as YAMLSeq).flow = true;
  const frontmatter = doc.toString({ lineWidth: 0, flowCollectionPadding: false });
  return body === "" ? `---\n${frontmatter}---\n` : `---\n${frontmatter}---\n\n${body}`;
}
