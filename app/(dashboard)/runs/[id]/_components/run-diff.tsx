"use client";

// react-diff-view renders git's unified diff as React elements (no HTML strings), in a unified
// or a side-by-side view from the same parsed hunks; its parser is gitdiff-parser.
import { useMemo, useState } from "react";
import { Diff, Hunk, parseDiff, type FileData } from "react-diff-view";
import "react-diff-view/style/index.css";
import type { RunJson } from "@/app/(dashboard)/_data/wire";

type View = "unified" | "split";

const fileName = (f: FileData) => (f.type === "delete" ? f.oldPath : f.newPath);

export function RunDiff({ diff }: { diff: NonNullable<RunJson["diff"]> }) {
  const [view, setView] = useState<View>("unified");
  const parsed = useMemo(() => parseDiff(diff.patch, { nearbySequences: "zip" }), [diff.patch]);
  const byPath = new Map(parsed.map((f) => [fileName(f), f]));
  return (
    <section aria-label="Changes" className="run-diff">
      <div className="row spread">
        <h2>Changes <span className="small muted">{diff.files.length} files, <span className="ok">+{diff.insertions}</span> <span className="bad">−{diff.deletions}</span></span></h2>
        <div className="segmented" role="group" aria-label="Diff view">
          <button type="button" className={view === "unified" ? "" : "secondary"} aria-pressed={view === "unified"} onClick={() => setView("unified")}>Unified</button>
          <button type="button" className={view === "split" ? "" : "secondary"} aria-pressed={view === "split"} onClick={() => setView("split")}>Side by side</button>
        </div>
      </div>
      <ul className="diff-files">
        {diff.files.map((f) => (
          <li key={f.path}>
            <a href={`#diff-${encodeURIComponent(f.path)}`}><code>{f.previousPath ? `${f.previousPath} → ${f.path}` : f.path}</code></a>
            {" "}{f.binary ? <span className="muted small">binary</span> : <span className="small"><span className="ok">+{f.insertions}</span> <span className="bad">−{f.deletions}</span></span>}
          </li>
        ))}
      </ul>
      {diff.truncated && <p className="small warn">The diff is too large to show whole: the files below are complete, the others are listed above only.</p>}
      {diff.files.map((f) => {
        const file = byPath.get(f.path);
        if (!file) return null;
        return (
          <article key={f.path} id={`diff-${encodeURIComponent(f.path)}`} className="diff-file" aria-label={`Changes to ${f.path}`}>
            <header><code>{f.previousPath ? `${f.previousPath} → ${f.path}` : f.path}</code> <span className="muted small">{file.type}</span></header>
            {file.hunks.length === 0
              ? <p className="muted small">{f.binary ? "Binary file: no text to show." : "No content changes (mode or name only)."}</p>
              : (
                <div className="diff-scroll">
                  <Diff viewType={view} diffType={file.type} hunks={file.hunks}>
                    {(hunks) => hunks.map((hunk) => <Hunk key={hunk.content} hunk={hunk} />)}
                  </Diff>
                </div>
              )}
          </article>
        );
      })}
    </section>
  );
}
