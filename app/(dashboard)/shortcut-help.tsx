"use client";

import { useEffect, useRef } from "react";

const SHORTCUTS: Array<[string, string]> = [
  ["?", "Show this help"],
  ["o", "Project page: turn the loop on or off"],
  ["p", "Project page: turn parallel executors on or off"],
  ["Esc", "Close this help"],
];

const typing = (el: EventTarget | null) =>
  el instanceof HTMLElement && (el.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(el.tagName));

/** `?` anywhere in the dashboard (outside a text field) lists the keyboard shortcuts. */
export function ShortcutHelp() {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "?" || e.metaKey || e.ctrlKey || e.altKey || typing(e.target)) return;
      e.preventDefault();
      if (!dialog.current?.open) dialog.current?.showModal();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
  return (
    <dialog ref={dialog} className="panel shortcuts" aria-labelledby="shortcuts-h">
      <h2 id="shortcuts-h">Keyboard shortcuts</h2>
      <dl>
        {SHORTCUTS.map(([key, what]) => (
          <div key={key} className="row"><dt><kbd>{key}</kbd></dt><dd>{what}</dd></div>
        ))}
      </dl>
      <form method="dialog"><button type="submit" className="secondary">Close</button></form>
    </dialog>
  );
}
