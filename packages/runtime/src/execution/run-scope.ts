import type { ExpressionContext, LwirBodyStep, LwirStep, StepExpressionState } from "@little-stack/lwir";
import { SchedulingDeadlockError } from "../errors/runtime-config-errors.js";
import type { CommittedOutput } from "./commit-step-output.js";
import { abortFailure } from "./harness-dispatch.js";
import { runParallelGroup } from "./run-parallel-group.js";
import type { RunContext } from "./run-context.js";
import { runStep } from "./run-step.js";
import { stepPathFor } from "./step-path.js";
import { StepFailure, stepErrorOf } from "./step-failure.js";

/** A list of steps to schedule: the workflow's, or one parallel branch's body. */
export type ScopeInvocation = {
  readonly run: RunContext;
  readonly steps: readonly LwirStep[];
  /** `""` at the top level, the branch path (`fanout[a]`) inside a branch. */
  readonly prefix: string;
  /** Whose steps these are, for messages ("the workflow", "branch fanout[a]"). */
  readonly scopeName: string;
  /** Step states visible from outside the scope (a branch sees the workflow's). */
  readonly outerSteps: Readonly<Record<string, StepExpressionState>>;
  readonly item?: { readonly value: unknown };
  readonly parallel?: { readonly groupPath: string; readonly itemKey: string };
};

export type ScopeOutcome = {
  /** Every completed visit's output by step id (last visit last). */
  readonly outputsById: ReadonlyMap<string, readonly CommittedOutput[]>;
  /** The last non-decision step that completed. */
  readonly lastCompleted?: CommittedOutput & { readonly stepId: string };
  /** The list's terminal step (lwir.md §4), when it has exactly one. */
  readonly terminalStepId?: string;
};

type Slot = {
  status: "pending" | "done" | "dropped";
  visits: number;
  /** A decision target may run only after a decision chose it. */
  activated: boolean;
  readonly outputs: CommittedOutput[];
};

/**
 * Schedules one list of steps to the end (runtime.md § Step semantics): always the first step in
 * LWIR order whose needs are complete and which is not a decision target waiting for its
 * decision. Decisions drop the targets they did not choose; a choice of a step that already ran is
 * a back-edge: that step and everything downstream of it run again, as the next visit.
 */
export async function runScope(scope: ScopeInvocation): Promise<ScopeOutcome> {
  const { run, steps } = scope;
  const ids = new Set(steps.map((step) => step.id));
  const slots = new Map<string, Slot>(steps.map((step) => [step.id, { status: "pending", visits: 0, activated: false, outputs: [] }]));
  const deciders = new Map<string, string[]>();
  const dependents = new Map<string, string[]>();
  for (const step of steps) {
    for (const need of step.needs ?? []) if (ids.has(need)) dependents.set(need, [...(dependents.get(need) ?? []), step.id]);
    if (step.uses === "decision") {
      for (const target of [...step.with.cases.map((entry) => entry.to), step.with.default]) {
        if (target !== "end" && ids.has(target)) deciders.set(target, [...new Set([...(deciders.get(target) ?? []), step.id])]);
      }
    }
  }
  const terminalStepId = terminalOf(steps, deciders, dependents);
  // Own properties only (the evaluator reads with hasOwn); inner steps shadow outer ones.
  const visibleSteps: Record<string, StepExpressionState> = { ...scope.outerSteps };
  const outputsById = new Map<string, CommittedOutput[]>();
  let lastCompleted: (CommittedOutput & { stepId: string }) | undefined;

  const needsDone = (step: LwirStep): boolean => (step.needs ?? []).every((need) => !ids.has(need) || slots.get(need)!.status === "done");
  // A decision target waits while one of its deciders may still choose it: a pending decider that
  // is not downstream of the target. (A back-edge target runs before its decider, which needs it.)
  const upstreamDeciders = new Map<string, string[]>();
  for (const [target, list] of deciders) {
    const downstream = downstreamOf(target, dependents);
    upstreamDeciders.set(target, list.filter((decider) => !downstream.has(decider)));
  }
  const runnable = (step: LwirStep): boolean => {
    const slot = slots.get(step.id)!;
    if (slot.status !== "pending" || !needsDone(step)) return false;
    if (slot.activated) return true;
    return (upstreamDeciders.get(step.id) ?? []).every((decider) => slots.get(decider)!.status !== "pending");
  };

  const indexOf = new Map(steps.map((step, index) => [step.id, index]));
  // Everything before firstPending is done or dropped: picking never rescans the finished prefix,
  // so choosing the next step stays O(1) in a long sequential run.
  let firstPending = 0;
  const pick = (): LwirStep | undefined => {
    while (firstPending < steps.length && slots.get(steps[firstPending]!.id)!.status !== "pending") firstPending += 1;
    for (let index = firstPending; index < steps.length; index += 1) if (runnable(steps[index]!)) return steps[index];
    return undefined;
  };
  const reopen = (id: string): void => {
    firstPending = Math.min(firstPending, indexOf.get(id)!);
  };

  for (;;) {
    if (run.signal.aborted) throw abortFailure(run, undefined);
    const step = pick();
    if (step === undefined) {
      dropUnreachable(steps, slots, deciders, ids);
      const waiting = steps.filter((candidate) => slots.get(candidate.id)!.status === "pending").map((candidate) => candidate.id);
      if (waiting.length > 0) {
        const error = new SchedulingDeadlockError({ scope: scope.scopeName, waiting });
        throw new StepFailure("runtime_config_error", undefined, stepErrorOf(error, "runtime_config_error"));
      }
      break;
    }
    const slot = slots.get(step.id)!;
    const maxVisits = step.maxVisits ?? 1;
    const visitIndex = slot.visits;
    const stepPath = stepPathFor({ prefix: scope.prefix, stepId: step.id, maxVisits, visitIndex });
    if (visitIndex >= maxVisits) {
      throw new StepFailure("max_visits_exceeded", stepPath, {
        name: "MaxVisitsExceededError",
        message: `step "${step.id}" would start visit ${visitIndex + 1} but its maxVisits is ${maxVisits}`,
        causeCode: "max_visits_exceeded",
        retriable: false,
      });
    }
    const expressions: ExpressionContext = {
      input: run.input,
      steps: visibleSteps,
      workflow: run.lwir,
      ...(scope.item === undefined ? {} : { item: scope.item.value }),
    };
    const committed =
      step.uses === "parallel"
        ? await runParallelGroup({ run, step, stepPath, visitIndex, expressions })
        : await runStep(run, {
            step: step as LwirBodyStep,
            stepPath,
            visitIndex,
            expressions,
            ...(scope.parallel === undefined ? {} : { parallel: scope.parallel }),
          });
    slot.visits += 1;
    slot.status = "done";
    slot.outputs.push(committed);
    outputsById.set(step.id, slot.outputs);
    const outputs = slot.outputs.map((entry) => entry.output);
    visibleSteps[step.id] = maxVisits > 1 ? { status: "completed", output: committed.output, visits: outputs } : { status: "completed", output: committed.output };
    if (step.uses !== "decision") {
      lastCompleted = { ...committed, stepId: step.id };
      continue;
    }
    const chosen = (committed.output as { chosen: string }).chosen;
    if (chosen === "end") {
      for (const other of slots.values()) if (other.status === "pending") other.status = "dropped";
      break;
    }
    const target = slots.get(chosen);
    if (target === undefined) {
      throw new StepFailure("runtime_config_error", stepPath, {
        name: "DecisionTargetError",
        message: `decision ${stepPath} chose "${chosen}", which is not a step of ${scope.scopeName} nor "end"`,
        causeCode: "runtime_config_error",
        retriable: false,
      });
    }
    const targets = [...step.with.cases.map((entry) => entry.to), step.with.default];
    for (const other of targets) {
      const otherSlot = slots.get(other);
      if (other !== chosen && otherSlot !== undefined && otherSlot.status === "pending" && !otherSlot.activated) otherSlot.status = "dropped";
    }
    if (target.status === "done") {
      for (const id of requeueDownstream(chosen, slots, dependents, deciders)) reopen(id);
    } else {
      // A forward choice revives what an earlier drop of this target took with it.
      for (const id of downstreamOf(chosen, dependents)) {
        const revived = slots.get(id)!;
        if (revived.status === "dropped") {
          revived.status = "pending";
          reopen(id);
        }
      }
    }
    target.status = "pending";
    reopen(chosen);
    target.activated = true;
  }
  return { outputsById, ...(lastCompleted === undefined ? {} : { lastCompleted }), ...(terminalStepId === undefined ? {} : { terminalStepId }) };
}

/** A back-edge: the chosen step and every step downstream of it (through needs) run again. */
function requeueDownstream(start: string, slots: Map<string, Slot>, dependents: Map<string, string[]>, deciders: Map<string, string[]>): Set<string> {
  const seen = new Set<string>([start]);
  const queue = [start];
  while (queue.length > 0) {
    const id = queue.shift()!;
    const slot = slots.get(id)!;
    slot.status = "pending";
    if (deciders.has(id)) slot.activated = false;
    for (const next of dependents.get(id) ?? []) {
      if (!seen.has(next)) {
        seen.add(next);
        queue.push(next);
      }
    }
  }
  return seen;
}

/** The step and every step that needs it, directly or not. */
function downstreamOf(start: string, dependents: Map<string, string[]>): Set<string> {
  const seen = new Set<string>([start]);
  const queue = [start];
  while (queue.length > 0) {
    for (const next of dependents.get(queue.shift()!) ?? []) {
      if (!seen.has(next)) {
        seen.add(next);
        queue.push(next);
      }
    }
  }
  return seen;
}

/** Drops what can no longer run: steps needing a dropped step, targets whose deciders are all done. */
function dropUnreachable(steps: readonly LwirStep[], slots: Map<string, Slot>, deciders: Map<string, string[]>, ids: ReadonlySet<string>): void {
  let changed = true;
  while (changed) {
    changed = false;
    for (const step of steps) {
      const slot = slots.get(step.id)!;
      if (slot.status !== "pending") continue;
      const needDropped = (step.needs ?? []).some((need) => ids.has(need) && slots.get(need)!.status === "dropped");
      const orphanTarget = deciders.has(step.id) && !slot.activated && deciders.get(step.id)!.every((decider) => slots.get(decider)!.status !== "pending");
      if (needDropped || orphanTarget) {
        slot.status = "dropped";
        changed = true;
      }
    }
  }
}

/** The single non-decision step nothing needs and no decision routes to (lwir.md §4). */
function terminalOf(steps: readonly LwirStep[], deciders: Map<string, string[]>, dependents: Map<string, string[]>): string | undefined {
  const terminals = steps.filter((step) => step.uses !== "decision" && !deciders.has(step.id) && !dependents.has(step.id));
  return terminals.length === 1 ? terminals[0]!.id : undefined;
}
