import { z } from "zod";
import { isServerOnlyVariable } from "@/lib/env";
import { isLoaderVariable } from "@/lib/sandbox/bwrap";

// One schema for the Team page's form and the route.
export const credentialName = z.string().trim()
  .regex(/^[A-Z_][A-Z0-9_]{0,99}$/, "names an environment variable like ANTHROPIC_API_KEY")
  .refine((name) => !isServerOnlyVariable(name), { message: "is one of Ringmaster's own variables and is never passed to an agent" })
  .refine((name) => !isLoaderVariable(name), { message: "is read by the system's program loader, outside the sandbox, and is never passed to an agent" });

export const credentialInput = z.object({
  name: credentialName,
  // An environment value cannot hold a NUL byte; a key pasted with a newline is a mistake.
  value: z.string().min(1, "is required").max(10_000, "must be at most 10000 characters").regex(/^[^\0\r\n]+$/, "must be one line"),
});

export type CredentialInput = z.input<typeof credentialInput>;
