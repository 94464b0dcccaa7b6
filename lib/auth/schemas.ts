import { z } from "zod";
import { rule } from "@/lib/validation/issues";
import { weakPasswordReason } from "@/lib/auth/password-strength";

// One schema for each form and the lib function behind it.
export const emailField = z.string().trim().toLowerCase().pipe(z.email("must be a valid email address"));
export const passwordField = z.string().min(10, "must be at least 10 characters").max(200, "must be at most 200 characters")
  .superRefine((password, ctx) => {
    if (password.length < 10 || password.length > 200) return;
    const reason = weakPasswordReason(password);
    if (reason) ctx.addIssue({ code: "custom", message: reason });
  });
export const nameField = z.string().trim().max(100, "must be at most 100 characters").optional().transform((v) => v || undefined);

export const accountInput = z.object({ name: nameField, email: emailField, password: passwordField });
export type AccountInput = z.input<typeof accountInput>;

export const signUpInput = accountInput.extend({
  teamName: z.string().trim().min(1, "is required").max(100, "must be at most 100 characters"),
});
export type SignUpInput = z.input<typeof signUpInput>;

/** Field → first message, for forms that show each message next to its field. */
export function fieldErrors(err: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of err.issues) {
    const field = issue.path.join(".") || "form";
    out[field] ??= rule(issue);
  }
  return out;
}
