import { ZxcvbnFactory } from "@zxcvbn-ts/core";
import { adjacencyGraphs, dictionary as common } from "@zxcvbn-ts/language-common";
import { dictionary as english, translations } from "@zxcvbn-ts/language-en";

// zxcvbn-ts (Dropbox's estimator, maintained in TypeScript) knows the common password lists,
// keyboard walks, repeats and sequences: length alone lets "aaaaaaaaaa" and "1234567890" through.
let estimator: ZxcvbnFactory | undefined;

// Score 3 is "safely unguessable: moderate protection from offline slow-hash attacks".
const MIN_SCORE = 3;

/** Why a password is too easy to guess, or null when it is strong enough. */
export function weakPasswordReason(password: string): string | null {
  estimator ??= new ZxcvbnFactory({ dictionary: { ...common, ...english }, graphs: adjacencyGraphs, translations });
  const result = estimator.check(password);
  if (result.score >= MIN_SCORE) return null;
  const why = result.feedback.warning ?? result.feedback.suggestions[0] ?? null;
  return `is too easy to guess${why ? ` (${why.replace(/\.$/, "").toLowerCase()})` : ""}`;
}
