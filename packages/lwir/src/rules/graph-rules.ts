import { shown, type FindingList } from "../findings.js";
import { isRecord, ownField } from "./json-shape.js";
import { checkOperandTypeRules } from "./operand-type-rules.js";
import type { LwirRuleContext, StepEntry, StepScope } from "./rule-context.js";
import { ScopeGraph } from "./scope-graph.js";
import { resolveStepId } from "./step-resolution.js";

/** lwir.md §4: references vs needs, multi-visit outputs, cycles, decision-target deadlocks, terminals. */
export function checkGraphRules(context: LwirRuleContext, findings: FindingList): void {
  const graphs = new Map<StepScope, ScopeGraph>();
  for (const scope of context.scopes) graphs.set(scope, new ScopeGraph(scope));
  checkReferences({ context, graphs, findings });
  checkOperandTypeRules(context, graphs, findings);
  for (const scope of context.scopes) {
    const graph = graphs.get(scope) as ScopeGraph;
    checkCycles(graph, findings);
    checkDecisionTargetNeeds(graph, findings);
    checkTerminal({ scope, graph, findings });
  }
}

function quoteAll(ids: readonly string[]): string {
  return ids.map((id) => `"${shown(id)}"`).join(", ");
}

function checkReferences(options: {
  context: LwirRuleContext;
  graphs: ReadonlyMap<StepScope, ScopeGraph>;
  findings: FindingList;
}): void {
  const { context, graphs, findings } = options;
  for (const entry of context.allSteps()) {
    const ownNeeds = new Set(entry.needs.map((need) => need.id));
    for (const use of context.templatesOf(entry)) {
      const missing = new Set<string>();
      const undeclared = new Set<string>();
      const undeclaredOuter = new Set<string>();
      const ambiguous = new Set<string>();
      const unguarded = new Set<string>();
      for (const reference of use.stepReferences) {
        const resolution = resolveStepId({ context, from: entry, stepId: reference.stepId });
        if (resolution.kind === "invalid_id") continue;
        if (resolution.kind === "missing") {
          missing.add(reference.stepId);
          continue;
        }
        const readsPastVisit = reference.accessor === "lastOutput" || reference.accessor === "allVisits";
        if (resolution.kind === "sibling" && entry.needsKnown && !ownNeeds.has(reference.stepId)) {
          const graph = graphs.get(entry.scope);
          // A step with an invalid or duplicate id is not in the graph: its back-edges are unknown.
          const outsideGraph = entry.id === undefined || entry.isDuplicate;
          const alongBackEdge = graph !== undefined && (outsideGraph || graph.reaches(resolution.target, entry));
          if (!(readsPastVisit && alongBackEdge)) undeclared.add(reference.stepId);
          // Before the loop's first pass reaches X, lastOutput is null and allVisits []: reading
          // below them resolves only from the second pass on (lwir package README, "first visit").
          else if (reference.rest.length > 0 && !reference.guarded && graph !== undefined && !outsideGraph && !graph.ranBefore(resolution.target, entry)) {
            unguarded.add(reference.source);
          }
        }
        if (resolution.kind === "outer_undeclared") {
          const parallel = entry.scope.parallel as StepEntry;
          const graph = graphs.get(parallel.scope);
          if (!(readsPastVisit && graph !== undefined && graph.reaches(resolution.target, parallel))) {
            undeclaredOuter.add(reference.stepId);
          }
        }
        if (reference.accessor === "output" && resolution.target.maxVisits > 1) {
          ambiguous.add(reference.stepId);
        }
      }
      if (missing.size > 0) {
        findings.report({
          code: "step.missing_dependency",
          path: use.path,
          message: `The expression references ${quoteAll([...missing])}, which ${missing.size === 1 ? "is not a step" : "are not steps"} visible from here (same list, or the enclosing parallel step's needs).`,
        });
      }
      if (undeclared.size > 0 || undeclaredOuter.size > 0) {
        const parts: string[] = [];
        if (undeclared.size > 0) parts.push(`add ${quoteAll([...undeclared])} to this step's needs`);
        if (undeclaredOuter.size > 0) {
          parts.push(`add ${quoteAll([...undeclaredOuter])} to the needs of the parallel step "${shown(entry.scope.parallel?.id ?? "?")}"`);
        }
        findings.report({
          code: "step.undeclared_dependency",
          path: use.path,
          message: `The expression reads steps that are not declared as dependencies: ${parts.join(", and ")} (only lastOutput / allVisits may read along a back-edge).`,
        });
      }
      if (unguarded.size > 0) {
        const first = [...unguarded][0] as string;
        findings.report({
          code: "expression.unguarded_back_edge_read",
          path: use.path,
          message: `${[...unguarded].map((source) => `\`${source}\``).join(", ")} ${unguarded.size === 1 ? "reads" : "read"} a step along a back-edge, which has not run yet in the loop's first pass (lastOutput is null and allVisits [] there): wrap it in coalesce, e.g. \`{{ coalesce(${first}, 'none yet') }}\`.`,
        });
      }
      if (ambiguous.size > 0) {
        findings.report({
          code: "lwir.output_ambiguous_for_multi_visit",
          path: use.path,
          message: `steps.X.output is ambiguous for ${quoteAll([...ambiguous])}, which may run more than once (maxVisits > 1): use lastOutput or allVisits.`,
        });
      }
    }
  }
}

function checkCycles(graph: ScopeGraph, findings: FindingList): void {
  for (const component of graph.cyclicComponents()) {
    const problems: string[] = [];
    const lowVisits = component.filter((node) => node.maxVisitsKnown && node.maxVisits < 2).map((node) => node.id as string);
    if (lowVisits.length > 0) problems.push(`${quoteAll(lowVisits)} must have maxVisits >= 2`);
    if (!component.some((node) => node.uses === "decision")) {
      problems.push("the cycle passes through no decision step (needs alone can never run it)");
    } else if (hasCycleWithoutDecision(graph, component)) {
      problems.push("part of it is a cycle of needs alone, which no decision can start");
    }
    if (problems.length === 0) continue;
    const first = component[0] as StepEntry;
    findings.report({
      code: "lwir.invalid_cycle",
      path: first.path,
      message: `Steps ${quoteAll(component.map((node) => node.id as string))} form a cycle that is not allowed: ${problems.join("; ")}.`,
    });
  }
}

/** Kahn's algorithm over the component minus its decisions: leftovers are a decision-free cycle. */
function hasCycleWithoutDecision(graph: ScopeGraph, component: readonly StepEntry[]): boolean {
  const nodes = new Set(component.filter((node) => node.uses !== "decision"));
  const incoming = new Map<StepEntry, number>();
  for (const node of nodes) incoming.set(node, 0);
  for (const node of nodes) {
    for (const successor of graph.successors(node)) {
      if (nodes.has(successor)) incoming.set(successor, (incoming.get(successor) as number) + 1);
    }
  }
  const ready = [...nodes].filter((node) => incoming.get(node) === 0);
  let removed = 0;
  while (ready.length > 0) {
    const node = ready.pop() as StepEntry;
    removed += 1;
    for (const successor of graph.successors(node)) {
      if (!nodes.has(successor)) continue;
      const remaining = (incoming.get(successor) as number) - 1;
      incoming.set(successor, remaining);
      if (remaining === 0) ready.push(successor);
    }
  }
  return removed < nodes.size;
}

/**
 * lwir.md §4: needing a step that a decision routes to forward, when that step has needs of its
 * own, can deadlock. Back-edge targets (the head of a loop) are exempt: their first visit is
 * scheduled by needs like any step, and the decision only re-queues them.
 */
function checkDecisionTargetNeeds(graph: ScopeGraph, findings: FindingList): void {
  const forwardTargets = new Map<StepEntry, StepEntry>();
  for (const decision of graph.nodes) {
    for (const target of graph.targetsOf(decision)) {
      if (!graph.sameComponent(decision, target) && !forwardTargets.has(target)) forwardTargets.set(target, decision);
    }
  }
  for (const node of graph.nodes) {
    for (const need of node.needs) {
      const target = node.scope.byId.get(need.id);
      if (target === undefined || target === node || target.needs.length === 0) continue;
      const decision = forwardTargets.get(target);
      if (decision === undefined) continue;
      findings.report({
        code: "lwir.decision_target_referenced_by_needs",
        path: [...node.path, "needs", need.index],
        message: `"${shown(need.id)}" is a target of decision "${shown(decision.id ?? "?")}" and has needs of its own, so needing it can deadlock when the decision routes elsewhere. Route to this step from the decision too, or drop the needs of "${shown(need.id)}".`,
      });
    }
  }
}

function checkTerminal(options: { scope: StepScope; graph: ScopeGraph; findings: FindingList }): void {
  const { scope, graph, findings } = options;
  if (scope.parallel !== undefined && hasFanInOutputStep(scope.parallel)) return;
  // With a malformed needs list nobody can tell which steps are needed; that finding comes first.
  if (scope.entries.some((entry) => !entry.needsKnown)) return;
  const neededOrRouted = new Set<StepEntry>();
  for (const node of graph.nodes) {
    for (const need of node.needs) {
      const needed = scope.byId.get(need.id);
      if (needed !== undefined && needed !== node) neededOrRouted.add(needed);
    }
    for (const target of graph.targetsOf(node)) neededOrRouted.add(target);
  }
  const terminals = graph.nodes.filter(
    (node) => node.uses !== undefined && node.uses !== "decision" && !neededOrRouted.has(node),
  );
  if (terminals.length <= 1) return;
  // Routed branches each ending in their own step are fine: exactly one of them runs (the run's
  // output is the one that did). Only terminals that can run in the same pass are ambiguous.
  const concurrent = terminals.some((node, index) => terminals.slice(index + 1).some((other) => !graph.mutuallyExclusive(node, other)));
  if (!concurrent) return;
  findings.report({
    code: "terminal.ambiguous",
    path: scope.path,
    message: `This list has ${terminals.length} terminal steps (${quoteAll(terminals.map((node) => node.id as string))}) that can all run: nothing needs them and no decision routes to them, so the output is ambiguous. Make all but one feed a later step (terminals of different branches of one decision are fine: only one of them runs).`,
  });
}

function hasFanInOutputStep(parallel: StepEntry): boolean {
  const withValue = parallel.record === undefined ? undefined : ownField(parallel.record, "with");
  const fanIn = isRecord(withValue) ? ownField(withValue, "fanIn") : undefined;
  return isRecord(fanIn) && typeof ownField(fanIn, "outputStep") === "string";
}
