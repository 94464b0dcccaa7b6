import type { TurnJson } from "@/app/(dashboard)/_data/wire";

const LABEL: Record<TurnJson["status"], string> = { sent: "sent", delivered: "delivered", evaluated: "read by the lead agent" };

/** ✓ sent, ✓✓ delivered (the lead's loop saw it), blue ✓✓ evaluated (a lead run read it). */
export function Receipt({ seq, status }: { seq: number | null; status: TurnJson["status"] }) {
  return (
    <span className={`receipt ${status}`} data-testid={seq === null ? "receipt-pending" : `receipt-${seq}`} data-status={status} title={LABEL[status]} aria-label={LABEL[status]}>
      {status === "sent" ? "✓" : "✓✓"}
    </span>
  );
}
