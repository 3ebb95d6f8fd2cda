import { sha256Digest } from "@little-stack/canonical";
import type { LwirFinding } from "@little-stack/lwir";

/**
 * Verdicts (the findings of `validateLwir` + the binding pass) of plans this process has checked,
 * keyed by the digest of the completed plan and of what it was bound against. Both checks are pure
 * functions of those two, so the same fixed plan (or the same accepted plan run again) is checked
 * once per process instead of once per run: on a long fixed plan the checks cost more per run
 * than hashing it. Bounded, oldest forgotten first.
 */
const verdicts = new Map<string, readonly LwirFinding[]>();
const rememberedVerdicts = 256;

export function checkPlanOnce(options: { readonly plan: unknown; readonly target: unknown; readonly check: (plan: unknown) => readonly LwirFinding[] }): readonly LwirFinding[] {
  let key: string;
  try {
    key = `${sha256Digest(options.plan)} ${sha256Digest(options.target)}`;
  } catch {
    // Not JSON: let the checks name what is wrong.
    return options.check(options.plan);
  }
  const known = verdicts.get(key);
  if (known !== undefined) return known;
  const findings = options.check(options.plan);
  if (verdicts.size >= rememberedVerdicts) verdicts.delete(verdicts.keys().next().value as string);
  verdicts.set(key, findings);
  return findings;
}
