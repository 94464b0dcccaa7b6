// Every refused input is explained in the words of the form: the field's label and what a valid
// value is, never a schema path ("settings.maxParallel"), a camelCase name or Zod's own wording.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { describeIssues } from "@/lib/validation/issues";
import { FIELD_LABELS } from "@/lib/validation/labels";
import { settingsInput } from "@/lib/projects/settings";
import { projectInput } from "@/lib/projects/schema";
import { projectPatch } from "@/lib/projects/update";
import { promptInput } from "@/lib/prompts/create";
import { importInput } from "@/lib/prompts/import";
import { profileInput } from "@/lib/profiles/profiles";
import { tokenInput } from "@/lib/auth/api-tokens";
import { invitationInput } from "@/lib/teams/invitations";
import { credentialInput } from "@/lib/credentials/schema";
import { policyInput } from "@/lib/approvals/policy";
import { decisionInput } from "@/lib/approvals/decide";
import { personTurnInput, threadInput } from "@/lib/threads/schema";
import { teamInput } from "@/lib/teams/create";
import { PATCH as patchSettings } from "@/app/api/projects/[id]/settings/route";
import { createTeamWithProject } from "./helpers/fixtures";
import { apiToken, params, request } from "./helpers/api";

const schemas: Record<string, z.ZodType> = {
  settingsInput, projectInput, projectPatch, promptInput, importInput, profileInput, tokenInput, invitationInput,
  credentialInput, policyInput, decisionInput, personTurnInput, threadInput, teamInput,
};

const shapeOf = (schema: z.ZodType): Record<string, z.ZodType> => {
  const def = (schema as unknown as { def: { type: string; in?: z.ZodType; shape?: Record<string, z.ZodType> } }).def;
  return def.shape ?? (def.in ? shapeOf(def.in) : {});
};

// Schema-speak a person would not understand.
const RAW = /Invalid|expected|received|>=|<=|\b[a-z]+[A-Z][A-Za-z]*\b|\.\d/;

const cases = Object.entries(schemas).flatMap(([name, schema]) =>
  Object.keys(shapeOf(schema)).map((field) => [name, field, schema] as const));

describe("validation messages", () => {
  it("walks every field of every form schema", () => expect(cases.length).toBeGreaterThan(60));

  it.each(cases)("%s.%s: a wrong value is named by its label", (_name, field, schema) => {
    expect(FIELD_LABELS[field], `label for ${field}`).toBeTypeOf("string");
    const result = schema.safeParse({ [field]: [[{}]] });
    expect(result.success).toBe(false);
    const mine = describeIssues(result.error!).filter((i) => i.field === field || i.field.startsWith(`${field}.`));
    expect(mine.length, `an error for ${field}`).toBeGreaterThan(0);
    for (const issue of mine) {
      expect(issue.message.startsWith(FIELD_LABELS[field])).toBe(true);
      expect(issue.message).not.toMatch(RAW);
    }
  });

  it("says what a whole number must be, with the form's label", () => {
    const result = settingsInput.safeParse({ maxParallel: 0, tickIntervalMs: "soon", mergeMethod: "fast", egressRules: ["ok.example.com", "exa_mple"] });
    expect(describeIssues(result.error!)).toEqual([
      { field: "tickIntervalMs", message: "Tick interval must be a whole number" },
      { field: "maxParallel", message: "Parallel agents must be a whole number ≥ 1" },
      { field: "mergeMethod", message: "Merge method must be merge, squash or rebase" },
      { field: "egressRules.1", message: "Allowed hosts, line 2 is not a host name (letters, digits and -, at least one dot; a leading *. allows every subdomain)" },
    ]);
  });

  it("answers every bad field of a request at once, each under its own name", async () => {
    const f = await createTeamWithProject();
    const token = await apiToken(f.team.id, "admin");
    const res = await patchSettings(request("PATCH", `/api/projects/${f.project.id}/settings`, token, { maxParallel: 0, maxAttempts: 99, rerunComment: "", surprise: 1 }), params(f.project.id));
    expect(res.status).toBe(400);
    expect((await res.json()).error).toEqual({
      code: "invalid", field: "maxParallel", message: "Parallel agents must be a whole number ≥ 1",
      fields: {
        maxParallel: "Parallel agents must be a whole number ≥ 1",
        maxAttempts: "Retry limit must be a whole number ≤ 10",
        rerunComment: "Rerun comment is required",
        surprise: "Surprise is not something this request accepts",
      },
    });
  });
});
