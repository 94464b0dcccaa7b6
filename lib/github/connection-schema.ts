import { z } from "zod";

const common = {
  name: z.string().trim().min(1).max(100).optional(),
  apiBaseUrl: z.url("must be an absolute URL").optional(),
  webhookSecret: z.string().min(16, "must be at least 16 characters").max(200).optional(),
};

// One schema for the form and the route.
export const connectionInput = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("pat"), token: z.string().trim().min(20, "is not a GitHub token").max(500), ...common }),
  z.object({
    kind: z.literal("app"),
    appId: z.coerce.string().regex(/^\d+$/, "must be a number"),
    installationId: z.coerce.string().regex(/^\d+$/, "must be a number"),
    privateKey: z.string().includes("PRIVATE KEY", { message: "must be a PEM private key" }).max(10_000),
    ...common,
  }),
]);

export type ConnectionInput = z.input<typeof connectionInput>;
