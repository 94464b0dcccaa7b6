"use client";

import Anser from "anser";
import { useEffect, useRef } from "react";
import { describeCall } from "@/lib/spend/loop-detector";
import { toSteps, type Step } from "./log-lines";

function Ansi({ text }: { text: string }) {
  const parts = Anser.ansiToJson(text, { remove_empty: true, use_classes: true });
  return (
    <>
      {parts.map((p, i) => (
        <span key={i} className={[p.fg && `${p.fg}-fg`, p.bg && `${p.bg}-bg`, ...p.decorations.map((d) => `ansi-${d}`)].filter(Boolean).join(" ") || undefined}>
          {p.content}
        </span>
      ))}
    </>
  );
}

function StepView({ step, repeated }: { step: Step; repeated: string | null }) {
  if (step.kind === "raw") return <div className={step.stderr ? "line stderr" : "line"}><Ansi text={step.text} /></div>;
  const e = step.event;
  switch (e.type) {
    case "init": return <div className="step init" data-testid="run-session">session started{e.model ? ` · ${e.model}` : ""}{e.sessionId ? ` · session ${e.sessionId}` : ""}</div>;
    case "text": return <div className="step text">{e.text}</div>;
    case "tool_use": {
      // The call a loop stop names is marked wherever it appears: that is what went round in circles.
      const looped = repeated !== null && describeCall(e.name, e.input) === repeated;
      return (
        <details className={looped ? "step tool repeated" : "step tool"} data-testid={looped ? "repeated-step" : undefined}>
          <summary>⚙ {e.name}{looped && <span className="badge failed">repeated</span>}</summary><pre>{JSON.stringify(e.input, null, 2)}</pre>
        </details>
      );
    }
    case "tool_result": return (
      <details className={e.isError ? "step result error" : "step result"}><summary>{e.isError ? "✗" : "✓"} result</summary><pre>{e.output}</pre></details>
    );
    case "result": return (
      <div className={e.ok ? "step final ok" : "step final error"} data-testid="run-result">
        {e.ok ? "finished" : "failed"}{e.summary ? `: ${e.summary}` : ""}
        {e.costUsd !== undefined && <> · ${e.costUsd.toFixed(4)}</>}
        {e.inputTokens !== undefined && <> · {e.inputTokens} in / {e.outputTokens ?? 0} out tokens</>}
      </div>
    );
    default: return null;
  }
}

/** The run's output as it arrives: structured steps for agents we can parse, ANSI text otherwise. */
export function LogView({ adapter, lines, follow, repeated = null }: { adapter: string; lines: readonly string[]; follow: boolean; repeated?: string | null }) {
  const end = useRef<HTMLDivElement>(null);
  useEffect(() => { if (follow) end.current?.scrollIntoView({ block: "end" }); }, [lines.length, follow]);
  const steps = toSteps(adapter, lines);
  return (
    <div className="log" data-testid="run-log" role="log" aria-live="polite">
      {steps.length === 0 && <p className="muted">No output yet.</p>}
      {steps.map((s, i) => <StepView key={i} step={s} repeated={repeated} />)}
      <div ref={end} />
    </div>
  );
}
