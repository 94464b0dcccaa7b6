// What an auth form's server action hands back: a message per field, and the values to refill.
export interface FormState {
  errors?: Record<string, string>;
  values?: Record<string, string>;
}

export const text = (form: FormData, name: string) => String(form.get(name) ?? "");

/** Only a path on this site: never an open redirect. */
export const safeNext = (next: string) => (next.startsWith("/") && !next.startsWith("//") && !next.startsWith("/\\") ? next : "/");
