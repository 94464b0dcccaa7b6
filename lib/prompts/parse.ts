import { parse as parseYaml, YAMLParseError } from "yaml";
import type { ZodError } from "zod";
import { MAX_INT4 } from "@/lib/validation/safe-text";
import { FIELD_RULES, promptFrontmatterSchema, type PromptFile } from "@/lib/prompts/schema";

export type ParsePromptResult = { ok: true; prompt: PromptFile } | { ok: false; error: string };

export const FRONTMATTER = /^---[ \t]*\r?\n([\s\S]*?\r?\n)?---[ \t]*(?:\r?\n|$)/;
const FILE_NUMBER = /^(\d+)-/;

export function parsePromptFile(fileName: string, text: string): ParsePromptResult {
  const fail = (reason: string): ParsePromptResult => ({ ok: false, error: `${fileName}: ${reason}` });

  const source = text.replace(/^\uFEFF/, "");
  const match = FRONTMATTER.exec(source);
  if (!match) {
    return fail("missing YAML frontmatter (the file must start with a line '---' and close it with another '---')");
  }

  let raw: unknown;
  try {
    raw = parseYaml(match[1] ?? "") ?? {};
  } catch (error) {
    return fail(`invalid YAML in frontmatter: ${describeYamlError(error)}`);
  }
  if (typeof raw !== "object" || Array.isArray(raw)) {
    return fail("frontmatter must be a YAML mapping of fields (number, title, status, priority, dependencies)");
  }

  const parsed = promptFrontmatterSchema.safeParse(raw);
  if (!parsed.success) return fail(describeIssues(parsed.error.issues, raw as Record<string, unknown>));
  const fields = parsed.data;

  const fromName = FILE_NUMBER.exec(fileName);
  const nameNumber = fromName ? Number(fromName[1]) : undefined;
  if (fields.number !== undefined && nameNumber !== undefined && fields.number !== nameNumber) {
    return fail(`file name number ${nameNumber} does not match frontmatter number ${fields.number}`);
  }
  const number = fields.number ?? nameNumber;
  if (number === undefined) return fail("number is required (in the frontmatter or as the file name prefix NN-)");
  if (number < 1 || number > MAX_INT4) return fail(`number ${FIELD_RULES.number} (got ${Number.isSafeInteger(number) ? number : fromName?.[1]} from the file name)`);
  if (fields.dependencies.includes(number)) return fail(`dependencies must not include the prompt itself (${number})`);

  const body = source.slice(match[0].length).replace(/^(?:\r?\n)+/, "");
  return { ok: true, prompt: { ...fields, number, body } };
}

function describeIssues(issues: ZodError["issues"], raw: Record<string, unknown>): string {
  const fields = [...new Set(issues.map((issue) => String(issue.path[0])))];
  return fields
    .map((field) => {
      const value = raw[field];
      if (value === undefined) return `${field} is required`;
      return `${field} ${FIELD_RULES[field as keyof typeof FIELD_RULES]} (got ${JSON.stringify(value)})`;
    })
    .join("; ");
}

function describeYamlError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const reason = message.split("\n")[0].replace(/ at line \d+, column \d+:?$/, "");
  const position = error instanceof YAMLParseError ? error.linePos?.[0] : undefined;
  // YAML counts lines inside the frontmatter; people count them from the file's first line, the opening '---'.
  return position ? `${reason} at line ${position.line + 1}, column ${position.col}` : reason;
}
