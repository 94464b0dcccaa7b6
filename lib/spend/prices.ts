/**
 * List prices in USD per million tokens, checked against the vendors' pricing pages in
 * 2026-11. A model is priced by the longest prefix of its name found here. A team's admin
 * can set its own prices (PriceTable), which win over these.
 */
export type Price = { input: number; output: number; cacheRead: number; cacheWrite: number };

const price = (input: number, output: number, cacheRead = input / 10, cacheWrite = input * 1.25): Price => ({ input, output, cacheRead, cacheWrite });

export const PRICES: Record<string, Price> = {
  // Anthropic: cache reads cost 0.1× input, 5-minute cache writes 1.25×.
  "claude-opus-4-5": price(5, 25),
  "claude-opus-4-6": price(5, 25),
  "claude-opus-4-1": price(15, 75),
  "claude-opus-4": price(15, 75),
  "claude-3-opus": price(15, 75),
  "claude-sonnet-4": price(3, 15),
  "claude-3-7-sonnet": price(3, 15),
  "claude-3-5-sonnet": price(3, 15),
  "claude-haiku-4": price(1, 5),
  "claude-3-5-haiku": price(0.8, 4),
  "claude-3-haiku": price(0.25, 1.25),
  // Claude Code's aliases
  opus: price(5, 25),
  sonnet: price(3, 15),
  haiku: price(1, 5),
  // OpenAI: cached input 0.1× on GPT-5, 0.25× on GPT-4.1; no separate write price.
  "gpt-5-nano": price(0.05, 0.4, 0.005, 0.05),
  "gpt-5-mini": price(0.25, 2, 0.025, 0.25),
  "gpt-5": price(1.25, 10, 0.125, 1.25),
  "gpt-4.1-nano": price(0.1, 0.4, 0.025, 0.1),
  "gpt-4.1-mini": price(0.4, 1.6, 0.1, 0.4),
  "gpt-4.1": price(2, 8, 0.5, 2),
  "gpt-4o-mini": price(0.15, 0.6, 0.075, 0.15),
  "gpt-4o": price(2.5, 10, 1.25, 2.5),
  "o4-mini": price(1.1, 4.4, 0.275, 1.1),
  o3: price(2, 8, 0.5, 2),
  // Google: prompts up to 200k tokens; cached input 0.1×.
  "gemini-3-pro": price(2, 12, 0.2, 2),
  "gemini-2.5-pro": price(1.25, 10, 0.125, 1.25),
  "gemini-2.5-flash-lite": price(0.1, 0.4, 0.01, 0.1),
  "gemini-2.5-flash": price(0.3, 2.5, 0.03, 0.3),
  "gemini-2.0-flash": price(0.1, 0.4, 0.025, 0.1),
  // Ringmaster's own demo agent calls no model.
  "ringmaster-demo": price(0, 0, 0, 0),
};

/** Unknown models are priced as the dearest one listed, so a cost ceiling fails closed. */
export const UNKNOWN_MODEL_PRICE: Price = price(15, 75);

/** Prices by model-name prefix; keys in lower case. */
export type PriceTable = Record<string, Price>;

/** A team's own price in USD per million tokens; cache writes are priced as input. */
export type PriceOverrideRow = { model: string; input: number; output: number; cached: number };

export function overrideTable(rows: PriceOverrideRow[]): PriceTable {
  return Object.fromEntries(rows.map((r) => [r.model.toLowerCase(), { input: r.input, output: r.output, cacheRead: r.cached, cacheWrite: r.input }]));
}

function longestPrefix(name: string, table: PriceTable): Price | undefined {
  let best: string | undefined;
  for (const key of Object.keys(table)) {
    if (name.startsWith(key) && (!best || key.length > best.length)) best = key;
  }
  return best === undefined ? undefined : table[best];
}

/** The team's own price for the model where it set one, else the shipped list price. */
export function priceOf(model: string | null | undefined, overrides: PriceTable = {}): Price {
  // "anthropic/claude-sonnet-4-5" and "models/gemini-2.5-pro" name the same models.
  const name = (model ?? "").toLowerCase().split("/").pop() ?? "";
  return longestPrefix(name, overrides) ?? longestPrefix(name, PRICES) ?? UNKNOWN_MODEL_PRICE;
}

export type TokenUse = { inputTokens: number; outputTokens: number; cacheReadTokens?: number; cacheWriteTokens?: number };

/** Cost in USD of one use; `inputTokens` excludes the cached tokens counted apart. */
export function costOf(model: string | null | undefined, use: TokenUse, overrides: PriceTable = {}): number {
  const p = priceOf(model, overrides);
  return (use.inputTokens * p.input + use.outputTokens * p.output + (use.cacheReadTokens ?? 0) * p.cacheRead + (use.cacheWriteTokens ?? 0) * p.cacheWrite) / 1e6;
}
