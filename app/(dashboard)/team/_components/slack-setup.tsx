/** What to set in the Slack app's own settings; the Request URL exists once the app is connected. */
export function SlackSetup({ eventsUrl }: { eventsUrl: string | null }) {
  return (
    <details className="small">
      <summary>Setting up the Slack app</summary>
      <ul>
        <li>Bot token scopes: <code>app_mentions:read</code>, <code>channels:history</code>, <code>groups:history</code>, <code>chat:write</code>, <code>reactions:write</code>, <code>users:read</code>.</li>
        <li>Event Subscriptions → Request URL: {eventsUrl ? <code data-testid="slack-events-url">{eventsUrl}</code> : "shown here once connected"}; bot events <code>app_mention</code>, <code>message.channels</code>, <code>message.groups</code>.</li>
        <li>Invite the bot to each channel you map. Ask by mentioning it, naming an agent, or <code>rm#&lt;agent id&gt;</code> / <code>rm#all</code>; replies in a thread where an agent works go to that agent.</li>
      </ul>
    </details>
  );
}
