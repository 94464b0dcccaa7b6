export type JsonObject = Record<string, unknown>;

/** The line as a JSON object, or null for anything else (plain text, arrays, broken JSON). */
export function parseJsonObject(line: string): JsonObject | null {
  const trimmed = line.trim();
  if (!trimmed.startsWith("{")) return null;
  try {
    const value: unknown = JSON.parse(trimmed);
    return isObject(value) ? value : null;
  } catch {
    return null;
  }
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function str(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

export function num(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

export function obj(value: unknown): JsonObject {
  return isObject(value) ? value : {};
}

export function arr(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** Sum of the numeric fields present; undefined when none is. */
export function sumOf(...values: unknown[]): number | undefined {
  const numbers = values.map(num).filter((n): n is number => n !== undefined);
  return numbers.length === 0 ? undefined : numbers.reduce((a, b) => a + b, 0);
}

/** Text of a tool result's content: a string, or the text blocks of an array of blocks. */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  return arr(content)
    .map((block) => str(obj(block).text))
    .filter((text): text is string => text !== undefined)
    .join("\n");
}

/** Anything that is not JSON becomes a log line; blank lines carry nothing. */
export function logLine(line: string): { type: "log"; text: string }[] {
  return line.trim() === "" ? [] : [{ type: "log", text: line }];
}
