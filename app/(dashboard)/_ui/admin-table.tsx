"use client";

import type { ReactNode } from "react";
import type { ApiError } from "@/app/(dashboard)/_ui/api";

/** An admin page's table: its headers (null: the unlabelled actions column), its rows, and the error of its last action. */
export function AdminTable({ testId, headers, error, children }: { testId: string; headers: Array<string | null>; error: ApiError | null; children: ReactNode }) {
  return (
    <div className="table-wrap">
      <table className="table" data-testid={testId}>
        <thead><tr>{headers.map((h) => <th key={h ?? "actions"} scope="col">{h ?? <span className="sr-only">Actions</span>}</th>)}</tr></thead>
        <tbody>{children}</tbody>
      </table>
      {error && <p className="error" role="alert">{error.message}</p>}
    </div>
  );
}

/** A row's action; with a question, it runs only once the person agrees. */
export function RowAction({ label, question, disabled, run }: { label: string; question?: string; disabled: boolean; run: () => unknown }) {
  return (
    <button type="button" className="secondary small" disabled={disabled} onClick={() => (question === undefined || confirm(question)) && run()}>
      {label}
    </button>
  );
}
