"use client";

import { Ago } from "@/app/(dashboard)/_ui/time";
import { useGithubDeliveries } from "@/app/(dashboard)/_data/use-github-deliveries";

const STATUS_CLASS: Record<string, string> = { processed: "succeeded", ignored: "", received: "queued", processing: "running", failed: "failed" };

/** The last webhook deliveries GitHub sent for the project, with what Ringmaster did with each. */
export function GithubDeliveries({ projectId }: { projectId: string }) {
  const { data, refetch, isFetching } = useGithubDeliveries(projectId);
  return (
    <div className="panel">
      <div className="row spread">
        <h3>Recent deliveries</h3>
        <button type="button" className="secondary" onClick={() => void refetch()} disabled={isFetching}>Refresh</button>
      </div>
      {!data ? <div className="skeleton" aria-busy="true" /> : data.length === 0 ? (
        <p className="muted small">No deliveries yet. Once the webhook is added, GitHub sends a ping and then every event chosen.</p>
      ) : (
        <div className="table-wrap">
          <table className="table" aria-label="Recent deliveries">
            <thead><tr><th>Received</th><th>Event</th><th>Status</th><th>Delivery</th></tr></thead>
            <tbody>
              {data.map((d) => (
                <tr key={d.deliveryId}>
                  <td><Ago at={d.receivedAt} /></td>
                  <td><code>{d.event}{d.action ? `.${d.action}` : ""}</code></td>
                  <td><span className={`badge ${STATUS_CLASS[d.status] ?? ""}`}>{d.status}</span>{d.error && <small className="error"> {d.error}</small>}</td>
                  <td><code className="small">{d.deliveryId}</code></td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
