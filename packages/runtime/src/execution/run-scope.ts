import type { ExpressionContext, LwirBodyStep, LwirDecisionStep, LwirStep, StepExpressionState } from "@little-stack/lwir";
import { SchedulingDeadlockError } from "../errors/runtime-config-errors.js";
import type { CommittedOutput } from "./commit-step-output.js";
import { eventLoopTurnIfDue } from "./event-loop-turn.js";
import { abortFailure } from "./harness-dispatch.js";
import { runParallelGroup } from "./run-parallel-group.js";
import type { RunContext } from "./run-context.js";
import { CancelledStepFailure, runStep } from "./run-step.js";
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
  status: "pending" | "running" | "done" | "dropped";
  visits: number;
  /** A decision target may run only after a decision chose it. */
  activated: boolean;
  /** Re-queued by a back-edge while it ran: pending again (its next visit) once it settles. */
  requeued: boolean;
  readonly outputs: CommittedOutput[];
};

/** How a started step ended. */
type Settlement = { readonly index: number } & ({ readonly ok: true; readonly committed: CommittedOutput } | { readonly ok: false; readonly error: unknown });

/**
 * Schedules one list of steps to the end (runtime.md § Step semantics): every step whose needs
 * are complete, which is not a decision target waiting for its decision and not held by an
 * unsettled loop (below), starts at once, in LWIR order; each attempt then waits for one of the
 * run's `maxConcurrentSteps` slots. Decisions drop the targets they did not choose; a choice of a
 * step that already ran is a back-edge: that step and everything downstream of it run again, as
 * the next visit.
 *
 * What starts, and under which path, depends only on the plan and the step outputs, never on
 * which step happened to finish first, so a resumed run takes the same route as the run it
 * resumes:
 * - a step downstream of a loop's back-edge target that does not itself lead to the loop's
 *   decision waits for that decision to settle (choose forward, `end`, or be dropped): it runs
 *   once, on the loop's final outputs, instead of racing the loop;
 * - `end` drops the decision's other targets, the steps that need the decision and the steps
 *   waiting for its loop (and what needs them); steps that do not depend on it finish.
 *
 * The first terminal failure cancels the other steps in flight (their attempts record
 * `StepFailed` with cause `cancelled` and `cancelledBy` naming it), nothing new starts, and the
 * list fails with it once everything in flight has settled.
 */
export async function runScope(scope: ScopeInvocation): Promise<ScopeOutcome> {
  const { steps } = scope;
  const ids = new Set(steps.map((step) => step.id));
  const indexOf = new Map(steps.map((step, index) => [step.id, index]));
  const slots = new Map<string, Slot>(steps.map((step) => [step.id, { status: "pending", visits: 0, activated: false, requeued: false, outputs: [] }]));
  const deciders = new Map<string, string[]>();
  const dependents = new Map<string, string[]>();
  for (const step of steps) {
    for (const need of step.needs ?? []) if (ids.has(need)) dependents.set(need, [...(dependents.get(need) ?? []), step.id]);
    if (step.uses === "decision") {
      for (const target of decisionTargets(step)) {
        if (target !== "end" && ids.has(target)) deciders.set(target, [...new Set([...(deciders.get(target) ?? []), step.id])]);
      }
    }
  }
  const terminalStepId = terminalOf(steps, deciders, dependents);
  // Own properties only (the evaluator reads with hasOwn); inner steps shadow outer ones.
  const visibleSteps: Record<string, StepExpressionState> = { ...scope.outerSteps };
  // Every step of the list is visible from the start as pending, so that a back-edge read in a
  // loop's first pass sees allVisits [] and lastOutput null instead of an unknown step (lwir README).
  for (const step of steps) visibleSteps[step.id] = { status: "pending" };
  const outputsById = new Map<string, CommittedOutput[]>();

  const settled = (id: string): boolean => {
    const status = slots.get(id)!.status;
    return status === "done" || status === "dropped";
  };
  const needsDone = (step: LwirStep): boolean => (step.needs ?? []).every((need) => !ids.has(need) || slots.get(need)!.status === "done");
  // A decision target waits while one of its deciders may still choose it: an unsettled decider
  // that is not downstream of the target. (A back-edge target runs before its decider, which needs it.)
  const upstreamDeciders = new Map<string, string[]>();
  for (const [target, list] of deciders) {
    const downstream = downstreamOf(target, dependents);
    upstreamDeciders.set(target, list.filter((decider) => !downstream.has(decider)));
  }
  const loopHolders = loopHoldersOf(steps, dependents, ids);
  const heldBy = new Map<string, string[]>();
  for (const [held, holders] of loopHolders) for (const holder of holders) heldBy.set(holder, [...(heldBy.get(holder) ?? []), held]);
  // Steps whose loop holds are lifted until they next start (see the idle case below).
  const released = new Set<string>();
  const runnable = (step: LwirStep, options: { readonly ignoreHolds?: boolean } = {}): boolean => {
    const slot = slots.get(step.id)!;
    if (slot.status !== "pending" || !needsDone(step)) return false;
    if (options.ignoreHolds !== true && !released.has(step.id) && (loopHolders.get(step.id) ?? []).some((holder) => !settled(holder))) return false;
    if (slot.activated) return true;
    return (upstreamDeciders.get(step.id) ?? []).every(settled);
  };

  // Steps that may have become runnable since the last pass: a pass looks at these only, so a
  // long sequential run costs O(1) per step, not a scan of the whole list.
  const candidates = new Set<number>(steps.map((_, index) => index));
  const consider = (id: string): void => {
    candidates.add(indexOf.get(id)!);
  };

  const cancellation = scope.run.cancellation.child();
  const run: RunContext = { ...scope.run, cancellation };
  const queue: Settlement[] = [];
  let wake: (() => void) | undefined;
  let inFlight = 0;
  let failure: StepFailure | undefined;
  let fatal: { readonly error: unknown } | undefined;

  const fail = (error: unknown): void => {
    if (!(error instanceof StepFailure)) {
      // Not a step's failure (a broken log, an integrity error): it wins over any step failure,
      // and the steps in flight stop without recording anything more.
      fatal ??= { error };
      cancellation.cancel({ kind: "halt" });
      return;
    }
    if (failure !== undefined || fatal !== undefined) return;
    // Resuming a list that was failing: a step cancelled by that failure names it. A failure of
    // this list (or of a step inside it) is this list's failure; one from outside (a branch
    // cancelled because a step beside its parallel group failed) goes up as the cancellation it is.
    if (error instanceof CancelledStepFailure) {
      const origin = error.primary.failedStepPath;
      const ours = scope.prefix === "" || origin === undefined || origin.startsWith(`${scope.prefix}.`);
      failure = ours ? new StepFailure(error.primary.causeCode, origin, error.primary.error) : error;
    } else {
      failure = error;
    }
    const primary = failure instanceof CancelledStepFailure ? failure.primary : undefined;
    cancellation.cancel({
      kind: "failure",
      primary: primary ?? { causeCode: failure.causeCode, ...(failure.failedStepPath === undefined ? {} : { failedStepPath: failure.failedStepPath }), error: failure.error },
    });
  };

  const start = (step: LwirStep): void => {
    const slot = slots.get(step.id)!;
    const maxVisits = step.maxVisits ?? 1;
    const visitIndex = slot.visits;
    const stepPath = stepPathFor({ prefix: scope.prefix, stepId: step.id, maxVisits, visitIndex });
    if (visitIndex >= maxVisits) {
      fail(
        new StepFailure("max_visits_exceeded", stepPath, {
          name: "MaxVisitsExceededError",
          message: `step "${step.id}" would start visit ${visitIndex + 1} but its maxVisits is ${maxVisits}`,
          causeCode: "max_visits_exceeded",
          retriable: false,
        }),
      );
      return;
    }
    const expressions: ExpressionContext = {
      input: run.input,
      steps: visibleSteps,
      workflow: run.lwir,
      ...(scope.item === undefined ? {} : { item: scope.item.value }),
    };
    slot.status = "running";
    released.delete(step.id);
    inFlight += 1;
    const index = indexOf.get(step.id)!;
    const work =
      step.uses === "parallel"
        ? runParallelGroup({ run, step, stepPath, visitIndex, expressions })
        : runStep(run, { step: step as LwirBodyStep, stepPath, visitIndex, expressions, ...(scope.parallel === undefined ? {} : { parallel: scope.parallel }) });
    const settle = (settlement: Settlement): void => {
      queue.push(settlement);
      const waiting = wake;
      wake = undefined;
      waiting?.();
    };
    work.then(
      (committed) => settle({ index, ok: true, committed }),
      (error: unknown) => settle({ index, ok: false, error }),
    );
  };

  const complete = (step: LwirStep, committed: CommittedOutput): void => {
    const slot = slots.get(step.id)!;
    const maxVisits = step.maxVisits ?? 1;
    slot.visits += 1;
    slot.status = slot.requeued ? "pending" : "done";
    if (slot.requeued) consider(step.id);
    slot.requeued = false;
    slot.outputs.push(committed);
    outputsById.set(step.id, slot.outputs);
    const outputs = slot.outputs.map((entry) => entry.output);
    visibleSteps[step.id] = maxVisits > 1 ? { status: "completed", output: committed.output, visits: outputs } : { status: "completed", output: committed.output };
    for (const next of dependents.get(step.id) ?? []) consider(next);
    if (step.uses === "decision") decide(step, committed);
  };

  const drop = (id: string): void => {
    const slot = slots.get(id)!;
    if (slot.status === "pending") slot.status = "dropped";
  };

  const decide = (step: LwirDecisionStep, committed: CommittedOutput): void => {
    const chosen = (committed.output as { chosen: string }).chosen;
    const targets = decisionTargets(step);
    // Whatever it chose, the targets it holds back and the steps waiting for its loop may now run (or be dropped).
    for (const id of [...targets, ...(heldBy.get(step.id) ?? [])]) if (ids.has(id)) consider(id);
    if (chosen === "end") {
      for (const other of targets) if (other !== "end" && slots.get(other) !== undefined && !slots.get(other)!.activated) drop(other);
      for (const id of downstreamOf(step.id, dependents)) if (id !== step.id) drop(id);
      for (const id of heldBy.get(step.id) ?? []) drop(id);
      dropUnreachable(steps, slots, deciders, ids);
      return;
    }
    const target = slots.get(chosen);
    if (target === undefined) {
      fail(
        new StepFailure("runtime_config_error", committed.stepPath, {
          name: "DecisionTargetError",
          message: `decision ${committed.stepPath} chose "${chosen}", which is not a step of ${scope.scopeName} nor "end"`,
          causeCode: "runtime_config_error",
          retriable: false,
        }),
      );
      return;
    }
    for (const other of targets) {
      const otherSlot = slots.get(other);
      if (other !== chosen && otherSlot !== undefined && otherSlot.status === "pending" && !otherSlot.activated) otherSlot.status = "dropped";
    }
    if (target.status === "done" || target.status === "running") {
      for (const id of requeueDownstream(chosen, slots, dependents, deciders)) consider(id);
    } else {
      // A forward choice revives what an earlier drop of this target took with it.
      for (const id of downstreamOf(chosen, dependents)) {
        const revived = slots.get(id)!;
        if (revived.status === "dropped") {
          revived.status = "pending";
          consider(id);
        }
      }
      target.status = "pending";
    }
    target.activated = true;
    consider(chosen);
    dropUnreachable(steps, slots, deciders, ids);
  };

  const pass = (): void => {
    if (candidates.size === 0) return;
    const ordered = [...candidates].sort((left, right) => left - right);
    candidates.clear();
    for (const index of ordered) {
      if (failure !== undefined || fatal !== undefined) return;
      const step = steps[index]!;
      if (runnable(step)) start(step);
    }
  };

  try {
    for (;;) {
      // Between steps, before starting more: a timer, signal or socket that fired meanwhile
      // (an abort among them) is seen before the next step starts.
      const turn = eventLoopTurnIfDue();
      if (turn !== undefined) await turn;
      if (failure === undefined && fatal === undefined && cancellation.cancelled) fail(abortFailure(run, undefined));
      if (failure === undefined && fatal === undefined) pass();
      if (inFlight === 0 && queue.length === 0) {
        if (failure !== undefined || fatal !== undefined) break;
        dropUnreachable(steps, slots, deciders, ids);
        for (const [id, slot] of slots) if (slot.status === "pending") consider(id);
        if (steps.some((step) => runnable(step))) continue;
        // Loops that hold each other's steps (two decisions looping back to one step along
        // different paths) would wait forever: with nothing else left, the first such step in
        // LWIR order goes ahead — a choice made from the recorded state alone, so a resume makes it too.
        const heldBack = steps.find((step) => runnable(step, { ignoreHolds: true }));
        if (heldBack !== undefined) {
          released.add(heldBack.id);
          consider(heldBack.id);
          continue;
        }
        const waiting = steps.filter((candidate) => slots.get(candidate.id)!.status === "pending").map((candidate) => candidate.id);
        if (waiting.length > 0) {
          const error = new SchedulingDeadlockError({ scope: scope.scopeName, waiting });
          throw new StepFailure("runtime_config_error", undefined, stepErrorOf(error, "runtime_config_error"));
        }
        break;
      }
      if (queue.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      for (const settlement of queue.splice(0)) {
        inFlight -= 1;
        const step = steps[settlement.index]!;
        if (settlement.ok) complete(step, settlement.committed);
        else fail(settlement.error);
      }
    }
  } finally {
    cancellation.dispose();
  }
  if (fatal !== undefined) throw fatal.error;
  if (failure !== undefined) throw failure;
  const lastCompleted = lastCompletedOf(steps, outputsById, ids);
  return { outputsById, ...(lastCompleted === undefined ? {} : { lastCompleted }), ...(terminalStepId === undefined ? {} : { terminalStepId }) };
}

function decisionTargets(step: LwirDecisionStep): string[] {
  return [...step.with.cases.map((entry) => entry.to), step.with.default];
}

/**
 * The steps a loop holds back, each with its holders: a decision with a back-edge target (a step
 * upstream of it, through needs) holds every step downstream of that target that does not lead
 * to the decision itself. Such a step would otherwise run on whichever visit happened to be
 * complete when it started, and again after each later one.
 */
function loopHoldersOf(steps: readonly LwirStep[], dependents: Map<string, string[]>, ids: ReadonlySet<string>): Map<string, string[]> {
  const holders = new Map<string, string[]>();
  const needsOf = new Map(steps.map((step) => [step.id, (step.needs ?? []).filter((need) => ids.has(need))]));
  for (const step of steps) {
    if (step.uses !== "decision") continue;
    const upstream = upstreamOf(step.id, needsOf);
    for (const target of decisionTargets(step)) {
      if (target === "end" || !upstream.has(target)) continue;
      for (const held of downstreamOf(target, dependents)) {
        if (upstream.has(held)) continue;
        const list = holders.get(held) ?? [];
        if (!list.includes(step.id)) holders.set(held, [...list, step.id]);
      }
    }
  }
  return holders;
}

/**
 * The run (or branch) output when the terminal step did not run: the last visit of the last
 * completed non-decision step in LWIR order among those no other completed non-decision step
 * needs — the end of what ran, whichever step happened to finish last in time. (For a sequential
 * list this is the step that completed last.)
 */
function lastCompletedOf(steps: readonly LwirStep[], outputsById: ReadonlyMap<string, readonly CommittedOutput[]>, ids: ReadonlySet<string>): (CommittedOutput & { readonly stepId: string }) | undefined {
  const ran = steps.filter((step) => step.uses !== "decision" && (outputsById.get(step.id)?.length ?? 0) > 0);
  const needed = new Set(ran.flatMap((step) => (step.needs ?? []).filter((need) => ids.has(need))));
  const last = ran.filter((step) => !needed.has(step.id)).at(-1);
  return last === undefined ? undefined : { ...outputsById.get(last.id)!.at(-1)!, stepId: last.id };
}

/** A back-edge: the chosen step and every step downstream of it (through needs) run again. */
function requeueDownstream(start: string, slots: Map<string, Slot>, dependents: Map<string, string[]>, deciders: Map<string, string[]>): Set<string> {
  const requeued = downstreamOf(start, dependents);
  for (const id of requeued) {
    const slot = slots.get(id)!;
    // A step still running finishes its visit first, then runs again.
    if (slot.status === "running") slot.requeued = true;
    else slot.status = "pending";
    if (deciders.has(id)) slot.activated = false;
  }
  return requeued;
}

/** The step and every step that needs it, directly or not. */
function downstreamOf(start: string, dependents: ReadonlyMap<string, readonly string[]>): Set<string> {
  return reachableFrom(start, dependents);
}

/** The step and every step it needs, directly or not. */
function upstreamOf(start: string, needsOf: ReadonlyMap<string, readonly string[]>): Set<string> {
  return reachableFrom(start, needsOf);
}

/** `start` and everything reachable from it along `edges`. */
function reachableFrom(start: string, edges: ReadonlyMap<string, readonly string[]>): Set<string> {
  const seen = new Set<string>([start]);
  const queue = [start];
  while (queue.length > 0) {
    for (const next of edges.get(queue.shift()!) ?? []) {
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
      const orphanTarget = deciders.has(step.id) && !slot.activated && deciders.get(step.id)!.every((decider) => ["done", "dropped"].includes(slots.get(decider)!.status));
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
