/**
 * Where a routed prompt was asked and which runner agent it is pinned to: "for backend ·
 * asked in Slack ↗". Only https links are shown (the address came from Slack or GitHub).
 */
export function PromptSource({ sourceUrl, agentName }: { sourceUrl: string | null; agentName: string | null }) {
  const url = sourceUrl && /^https:\/\//.test(sourceUrl) ? sourceUrl : null;
  if (!url && !agentName) return null;
  const where = url && /^https:\/\/[^/]*slack\.com\//.test(url) ? "asked in Slack" : "asked on GitHub";
  return (
    <p className="small muted" data-testid="prompt-source">
      {agentName && <span title="the runner agent this prompt was routed to">for {agentName}</span>}
      {agentName && url && " · "}
      {url && <a href={url} target="_blank" rel="noopener noreferrer">{where} ↗</a>}
    </p>
  );
}
