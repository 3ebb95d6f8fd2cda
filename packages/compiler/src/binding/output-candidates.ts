type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A step of one list with its position in the list. */
export type ListedStep = { readonly step: Json; readonly index: number };

/**
 * The steps of one list (the workflow's steps, or a parallel body) whose output can become the
 * list's output at run time, in list order. The runtime's rule (lwir.md §4): the terminal step's
 * output; when it did not run or there is none, the output of the last step — in list order — of
 * the completed non-decision steps that no completed non-decision step needs. So a step is left
 * out only when something provably runs after it and takes its place:
 *
 * - a non-decision step that needs it and then always runs (it is no forward decision target, and
 *   each of its needs is this step, ran before it, or cannot be dropped), which makes it "needed";
 * - or a decision that always runs (after it, when it needs it), none of whose targets is "end",
 *   each target being a loop's back-edge (the loop comes back to the decision) or a non-decision
 *   step that then runs and needs it, or whose downstream steps are all listed after it (a routed
 *   branch ending later in the list).
 *
 * A decision that can choose "end" ends the list at once: every step that can have completed by
 * then and that no step it certainly waited for needs stays a candidate. Conservative: a step that
 * is not provably replaced is kept.
 */
export function outputCandidates(steps: readonly unknown[]): ListedStep[] {
  const entries = steps.map((step, index) => ({ step, index })).filter((entry): entry is ListedStep => isRecord(entry.step) && typeof entry.step.id === "string");
  const byId = new Map(entries.map((entry) => [entry.step.id as string, entry]));
  const idOf = (entry: ListedStep) => entry.step.id as string;
  const isDecision = (entry: ListedStep) => entry.step.uses === "decision";
  const needsOf = (entry: ListedStep): string[] =>
    Array.isArray(entry.step.needs) ? entry.step.needs.filter((need): need is string => typeof need === "string" && byId.has(need) && need !== entry.step.id) : [];
  const targetsOf = (entry: ListedStep): string[] => {
    if (!isDecision(entry)) return [];
    const withBlock = isRecord(entry.step.with) ? entry.step.with : {};
    const cases = Array.isArray(withBlock.cases) ? withBlock.cases : [];
    const targets = cases.flatMap((entryCase) => (isRecord(entryCase) && typeof entryCase.to === "string" ? [entryCase.to] : []));
    return typeof withBlock.default === "string" ? [...targets, withBlock.default] : targets;
  };
  const dependents = new Map<string, ListedStep[]>();
  for (const entry of entries) for (const need of needsOf(entry)) dependents.set(need, [...(dependents.get(need) ?? []), entry]);

  const closure = (start: string, next: (id: string) => readonly string[]): Set<string> => {
    const seen = new Set<string>();
    const queue = [...next(start)];
    while (queue.length > 0) {
      const id = queue.shift()!;
      if (seen.has(id)) continue;
      seen.add(id);
      queue.push(...next(id));
    }
    return seen;
  };
  const upstreamCache = new Map<string, Set<string>>();
  /** Every step `id` needs, directly or not. */
  const upstream = (id: string): Set<string> => {
    let cached = upstreamCache.get(id);
    if (cached === undefined) upstreamCache.set(id, (cached = closure(id, (current) => needsOf(byId.get(current)!))));
    return cached;
  };
  /** `id` and every step that needs it, directly or not. */
  const downstream = (id: string): Set<string> => new Set([id, ...closure(id, (current) => (dependents.get(current) ?? []).map(idOf))]);

  // A forward target runs only when its decision chooses it; a back-edge target (a loop head) ran first through needs.
  const forwardTargetsOf = (decision: ListedStep): string[] => [...new Set(targetsOf(decision).filter((target) => byId.has(target) && !upstream(idOf(decision)).has(target)))];
  const decisions = entries.filter(isDecision);
  const droppableCache = new Map<string, boolean>();
  /** Whether a step can be skipped: a forward target its decisions may not choose, or something that needs one. */
  const droppable = (id: string): boolean => {
    const cached = droppableCache.get(id);
    if (cached !== undefined) return cached;
    droppableCache.set(id, true); // a needs cycle (invalid anyway) counts as droppable
    const result = uncertainTarget(id) || needsOf(byId.get(id)!).some(droppable);
    droppableCache.set(id, result);
    return result;
  };
  /**
   * A forward target that may never be chosen. One is certain when a decision that always runs has
   * it as its only way out (no other forward target, no "end"; back-edges only loop back to it).
   */
  const uncertainTarget = (id: string): boolean => {
    const deciders = decisions.filter((decision) => forwardTargetsOf(decision).includes(id));
    if (deciders.length === 0) return false;
    return !deciders.some((decision) => !targetsOf(decision).some((target) => !byId.has(target)) && forwardTargetsOf(decision).length === 1 && !droppable(idOf(decision)));
  };
  /** `follower` needs `step` and runs whenever `step` has run (nothing can drop it once `step` completed). */
  const alwaysRunsAfter = (step: ListedStep, follower: ListedStep): boolean =>
    !uncertainTarget(idOf(follower)) && needsOf(follower).every((need) => need === idOf(step) || upstream(idOf(step)).has(need) || !droppable(need));
  /** A target of `decision` that, once chosen, runs and needs `step` or puts a step listed after it in its place. */
  const replacesThrough = (step: ListedStep, decision: ListedStep, target: string): boolean => {
    const chosen = byId.get(target);
    if (chosen === undefined) return false; // "end" (or an unknown target)
    if (upstream(idOf(decision)).has(target)) return true; // a back-edge: the loop comes back to the decision
    if (isDecision(chosen)) return false;
    const needs = needsOf(chosen);
    if (!needs.every((need) => need === idOf(step) || upstream(idOf(decision)).has(need) || !droppable(need))) return false;
    return needs.includes(idOf(step)) || [...downstream(target)].every((id) => byId.get(id)!.index > step.index);
  };
  /** A decision that always runs (after `step` when it needs it) and whose every way out replaces `step`. */
  const replacedThrough = (step: ListedStep, decision: ListedStep): boolean => {
    const runs = needsOf(decision).includes(idOf(step)) ? alwaysRunsAfter(step, decision) : !droppable(idOf(decision));
    const targets = targetsOf(decision);
    return runs && targets.length > 0 && targets.every((target) => replacesThrough(step, decision, target));
  };
  const replaced = (step: ListedStep): boolean =>
    (dependents.get(idOf(step)) ?? []).some((follower) => !isDecision(follower) && alwaysRunsAfter(step, follower)) ||
    decisions.some((decision) => replacedThrough(step, decision));

  const candidates = new Set<string>();
  for (const entry of entries) if (!isDecision(entry) && !replaced(entry)) candidates.add(idOf(entry));
  // "end": the list stops when the decision chooses it; what ran by then is the output.
  for (const decision of entries.filter((entry) => isDecision(entry) && targetsOf(entry).includes("end"))) {
    const waitedFor = upstream(idOf(decision));
    const neededByWaitedFor = new Set([...waitedFor].flatMap((id) => (isDecision(byId.get(id)!) ? [] : needsOf(byId.get(id)!))));
    const notYet = new Set([...downstream(idOf(decision))]);
    for (const target of targetsOf(decision)) if (byId.has(target) && !waitedFor.has(target)) for (const id of downstream(target)) notYet.add(id);
    for (const entry of entries) {
      if (!isDecision(entry) && !notYet.has(idOf(entry)) && !neededByWaitedFor.has(idOf(entry))) candidates.add(idOf(entry));
    }
  }
  return entries.filter((entry) => candidates.has(idOf(entry)));
}
