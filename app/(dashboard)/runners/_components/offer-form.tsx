"use client";

import { api } from "@/app/(dashboard)/_ui/api";
import { submitFormData, useApiMutation } from "@/app/(dashboard)/_data/use-api-mutation";

/** Offers one prompt waiting for a runner to this runner; it accepts or rejects it. */
export function OfferForm({ runnerId, waiting }: { runnerId: string; waiting: { id: string; label: string }[] }) {
  const offer = useApiMutation((form: FormData) => api(`/api/runners/${runnerId}/offers`, { method: "POST", body: { promptId: form.get("promptId") } }), { refresh: true });
  if (waiting.length === 0) return null;
  return (
    <form method="post" onSubmit={submitFormData(offer)} className="inline-form" noValidate>
      <label className="sr-only" htmlFor={`offer-${runnerId}`}>Prompt to offer</label>
      <select id={`offer-${runnerId}`} name="promptId" defaultValue={waiting[0].id}>
        {waiting.map((p) => <option key={p.id} value={p.id}>{p.label}</option>)}
      </select>{" "}
      <button type="submit" className="secondary small" disabled={offer.pending}>Offer</button>
      {offer.error && <p className="error" role="alert">{offer.fieldError("promptId") ?? offer.error.message}</p>}
      {offer.isSuccess && <p className="muted small" role="status">Offered</p>}
    </form>
  );
}
