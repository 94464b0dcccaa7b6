import type { ReactNode } from "react";

/** A labelled form field with its validation message beside it. */
export function Field({ label, error, hint, children }: { label: string; error?: string; hint?: string; children: ReactNode }) {
  return (
    <label className={error ? "field invalid" : "field"}>
      <span>{label}</span>
      {children}
      {hint && !error && <small className="muted">{hint}</small>}
      {error && <small className="error" role="alert">{error}</small>}
    </label>
  );
}
