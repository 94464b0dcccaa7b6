"use client";

import { useState } from "react";
import { Field } from "@/app/(dashboard)/_ui/field";
import { api } from "@/app/(dashboard)/_ui/api";
import { useApiMutation } from "@/app/(dashboard)/_data/use-api-mutation";

export type PriceView = { model: string; input: number; output: number; cached: number };

const asText = (prices: PriceView[]) => prices.map((p) => `${p.model} ${p.input} ${p.output} ${p.cached}`).join("\n");

/**
 * The team's own model prices, one line each: model, then input, output and cached-input USD
 * per million tokens. The server checks each value; a line missing one is named by its number.
 */
export function PricesPanel({ prices }: { prices: PriceView[] }) {
  const [text, setText] = useState(asText(prices));
  const save = useApiMutation((lines: string) => api("/api/team/prices", {
    method: "PUT",
    body: {
      prices: lines.split("\n").map((l) => l.trim()).filter(Boolean).map((l) => {
        const [model, input, output, cached] = l.split(/\s+/);
        return { model, input, output, cached };
      }),
    },
  }), { refresh: true });
  const { error, fieldError } = save;
  return (
    <form method="post" className="stack" aria-label="Model prices" onSubmit={(e) => { e.preventDefault(); save.mutate(text); }}>
      <Field label="Prices (model, input, output, cached input: USD per million tokens)" error={fieldError("prices")}
        hint="one model per line, e.g. claude-sonnet-4-5 3 15 0.3; a model name matches every model it begins; models not listed keep the shipped list price">
        <textarea name="prices" rows={5} spellCheck={false} value={text} onChange={(e) => setText(e.target.value)} />
      </Field>
      {error && !error.field && <p className="error" role="alert">{error.message}</p>}
      <div className="row">
        <button type="submit" disabled={save.pending}>Save prices</button>
        {save.isSuccess && <span role="status" className="ok">Saved</span>}
      </div>
    </form>
  );
}
