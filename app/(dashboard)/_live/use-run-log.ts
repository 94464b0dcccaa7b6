"use client";

import { useEffect, useState } from "react";
import type { RunLogChunk, RunLogEnd } from "@/lib/events/wire";
import { openLiveSource, type LiveStatus } from "./live-source";

export interface RunLog {
  /** The newest lines, at most maxLines of them. */
  lines: readonly string[];
  /** Lines dropped from the top to stay within maxLines. */
  dropped: number;
  status: LiveStatus | "ended";
  /** The run's final status, once `end` arrived. */
  runStatus: string | null;
}

const initial: RunLog = { lines: [], dropped: 0, status: "connecting", runStatus: null };

/**
 * Follows /api/runs/[id]/log: the stored log, then the live tail, until `end`. Lines
 * collect outside React and reach it at most once per frame, however fast they come.
 */
export function useRunLog(runId: string, { maxLines = 5_000 }: { maxLines?: number } = {}): RunLog {
  const [state, setState] = useState<RunLog>(initial);

  useEffect(() => {
    let lines: string[] = [];
    let dropped = 0;
    let frame: number | null = null;
    setState(initial);
    const publish = () => {
      frame = null;
      setState((s) => ({ ...s, lines: lines.slice(), dropped }));
    };
    const source = openLiveSource({
      url: `/api/runs/${encodeURIComponent(runId)}/log`,
      events: ["end"],
      onStatus: (status) => setState((s) => (s.status === "ended" ? s : { ...s, status })),
      onEvent: (name, data) => {
        if (name === "end") {
          source.stop();
          if (frame !== null) cancelAnimationFrame(frame);
          publish();
          setState((s) => ({ ...s, status: "ended", runStatus: (JSON.parse(data) as RunLogEnd).status }));
          return;
        }
        lines.push(...(JSON.parse(data) as RunLogChunk).text.split("\n"));
        // Trim in steps, not per line, so a long log costs amortised O(1) per line.
        if (lines.length > maxLines * 1.25) {
          dropped += lines.length - maxLines;
          lines = lines.slice(-maxLines);
        }
        frame ??= requestAnimationFrame(publish);
      },
    });
    return () => {
      source.stop();
      if (frame !== null) cancelAnimationFrame(frame);
    };
  }, [runId, maxLines]);

  const extra = state.lines.length - maxLines;
  return extra > 0 ? { ...state, lines: state.lines.slice(extra), dropped: state.dropped + extra } : state;
}
