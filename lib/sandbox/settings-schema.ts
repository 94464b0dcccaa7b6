import { z } from "zod";
import { EGRESS_PRESET_IDS } from "@/lib/sandbox/presets";
import { NETWORK_MODES, parseEgressRule } from "@/lib/sandbox/policy";

/** The project settings that shape an agent's sandbox; merged into the settings schema. */
export const sandboxSettingsShape = {
  networkMode: z.enum(NETWORK_MODES, { error: "must be none, allow-list or full" }),
  egressPresets: z.array(z.enum(EGRESS_PRESET_IDS, { error: `must be one of ${EGRESS_PRESET_IDS.join(", ")}` }))
    .max(EGRESS_PRESET_IDS.length).transform((ids) => [...new Set(ids)]),
  egressRules: z.array(
    z.string().max(300, "must be at most 300 characters").superRefine((line, ctx) => {
      const rule = parseEgressRule(line);
      if (typeof rule === "string") ctx.addIssue({ code: "custom", message: rule });
    }).transform((line) => line.trim().replace(/\s+/g, " ")),
  ).max(200, "may hold at most 200 rules"),
  unsandboxed: z.boolean(),
};
