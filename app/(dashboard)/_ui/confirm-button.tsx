"use client";

import { useState } from "react";

/**
 * A button for something that cannot be undone (cancel a run, stop the loop, delete): the first
 * click asks the question beside it, and only "yes" acts. Keep is focused, so Enter does not confirm.
 */
export function ConfirmButton({ label, question, yes, onConfirm, disabled, className }: {
  label: string; question: string; yes: string; onConfirm: () => void; disabled?: boolean; className?: string;
}) {
  const [asking, setAsking] = useState(false);
  if (!asking) return <button type="button" className={className} disabled={disabled} onClick={() => setAsking(true)}>{label}</button>;
  return (
    <span role="group" aria-label={question} className="confirm">
      <span className="small">{question}</span>{" "}
      <button type="button" className="danger small" onClick={() => { setAsking(false); onConfirm(); }}>{yes}</button>{" "}
      <button type="button" className="secondary small" autoFocus onClick={() => setAsking(false)}>Keep</button>
    </span>
  );
}
