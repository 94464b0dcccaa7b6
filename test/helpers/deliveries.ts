import { deliverySubject } from "@/lib/github/delivery-store";

/**
 * A GitHub delivery's stored columns as the intake writes them: its JSON text (a string is taken
 * as the raw text itself, JSON or not) and what it is about.
 */
export const deliveryColumns = (event: string, payload: unknown) => ({
  payload: typeof payload === "string" ? payload : JSON.stringify(payload),
  subject: deliverySubject(event, (typeof payload === "object" && payload !== null ? payload : {}) as Parameters<typeof deliverySubject>[1]),
});
