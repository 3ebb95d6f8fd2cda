import { decisionTargets } from "./decision-rules.js";
import type { StepEntry, StepScope } from "./rule-context.js";

/**
 * The execution graph of one list (lwir.md §4): an edge X → S when S needs X, and D → T when
 * decision D routes to T. Only first occurrences of valid ids are nodes.
 */
export class ScopeGraph {
  readonly nodes: readonly StepEntry[];
  readonly #successors = new Map<StepEntry, StepEntry[]>();
  readonly #decisionTargets = new Map<StepEntry, StepEntry[]>();
  readonly #componentOf = new Map<StepEntry, number>();
  readonly #components: StepEntry[][] = [];
  #closure: Uint32Array[] | undefined;
  readonly #needsOf = new Map<StepEntry, StepEntry[]>();
  readonly #decidersOf = new Map<StepEntry, StepEntry[]>();
  readonly #requiredBefore = new Map<StepEntry, ReadonlySet<StepEntry>>();

  constructor(scope: StepScope) {
    this.nodes = scope.entries.filter((entry) => entry.id !== undefined && !entry.isDuplicate);
    for (const node of this.nodes) this.#successors.set(node, []);
    for (const node of this.nodes) {
      for (const need of node.needs) {
        const source = scope.byId.get(need.id);
        // A self-need is reported as invalid needs; it is not an execution edge.
        if (source !== undefined && source !== node) {
          this.#successors.get(source)?.push(node);
          this.#needsOf.set(node, [...(this.#needsOf.get(node) ?? []), source]);
        }
      }
      const targets = decisionTargets(node).flatMap((target) => {
        const step = scope.byId.get(target.id);
        return step === undefined ? [] : [step];
      });
      this.#decisionTargets.set(node, targets);
      const successors = this.#successors.get(node) as StepEntry[];
      for (const target of targets) {
        successors.push(target);
        this.#decidersOf.set(target, [...(this.#decidersOf.get(target) ?? []), node]);
      }
    }
    this.#computeComponents();
  }

  successors(node: StepEntry): readonly StepEntry[] {
    return this.#successors.get(node) ?? [];
  }

  /** Steps decision `node` routes to (empty for non-decisions). */
  targetsOf(node: StepEntry): readonly StepEntry[] {
    return this.#decisionTargets.get(node) ?? [];
  }

  /** Strongly connected components that contain a cycle (more than one node, or a self-loop). */
  cyclicComponents(): StepEntry[][] {
    return this.#components.filter((_component, index) => this.#isCyclic(index));
  }

  sameComponent(left: StepEntry, right: StepEntry): boolean {
    const component = this.#componentOf.get(left);
    return component !== undefined && component === this.#componentOf.get(right);
  }

  /** True when a path of at least one edge leads from `from` to `to`. */
  reaches(from: StepEntry, to: StepEntry): boolean {
    const fromComponent = this.#componentOf.get(from);
    const toComponent = this.#componentOf.get(to);
    if (fromComponent === undefined || toComponent === undefined) return false;
    if (fromComponent === toComponent) return this.#isCyclic(fromComponent);
    this.#closure ??= this.#buildClosure();
    const reachable = this.#closure[fromComponent] as Uint32Array;
    return ((reachable[toComponent >>> 5] as number) & (1 << (toComponent & 31))) !== 0;
  }

  /**
   * True when `earlier` has always completed at least once before `node` first starts: `node`
   * needs it (transitively), or every decision that can route to `node` for its first visit
   * requires it. Decisions in `node`'s own loop only re-queue it, so they do not count.
   */
  ranBefore(earlier: StepEntry, node: StepEntry): boolean {
    return this.#requiredSet(node, new Set()).has(earlier);
  }

  /**
   * True when `left` and `right` can never both run in one pass of their list: each needs (or is)
   * a different target of the same decision, that decision is on no cycle (it decides once), and
   * each of those targets is routed to by that decision alone.
   */
  mutuallyExclusive(left: StepEntry, right: StepEntry): boolean {
    const chosen = (node: StepEntry): Map<StepEntry, Set<StepEntry>> => {
      const byDecision = new Map<StepEntry, Set<StepEntry>>();
      for (const entry of [node, ...this.#requiredSet(node, new Set())]) {
        const deciders = this.#decidersOf.get(entry) ?? [];
        const decider = deciders[0];
        if (deciders.length !== 1 || decider === undefined || this.#isCyclic(this.#componentOf.get(decider) as number)) continue;
        byDecision.set(decider, new Set([...(byDecision.get(decider) ?? []), entry]));
      }
      return byDecision;
    };
    const leftChoices = chosen(left);
    for (const [decision, rightTargets] of chosen(right)) {
      const leftTargets = leftChoices.get(decision);
      if (leftTargets !== undefined && [...leftTargets].some((target) => !rightTargets.has(target))) return true;
    }
    return false;
  }

  #requiredSet(node: StepEntry, visiting: Set<StepEntry>): ReadonlySet<StepEntry> {
    const known = this.#requiredBefore.get(node);
    if (known !== undefined) return known;
    // A cycle of needs alone is reported elsewhere; inside it nothing is known to run first.
    if (visiting.has(node)) return new Set();
    visiting.add(node);
    const required = new Set<StepEntry>();
    for (const need of this.#needsOf.get(node) ?? []) {
      required.add(need);
      for (const entry of this.#requiredSet(need, visiting)) required.add(entry);
    }
    const forward = (this.#decidersOf.get(node) ?? []).filter((decider) => !this.sameComponent(decider, node));
    if (forward.length > 0) {
      const perDecider = forward.map((decider) => new Set([decider, ...this.#requiredSet(decider, visiting)]));
      for (const entry of perDecider[0] as Set<StepEntry>) if (perDecider.every((set) => set.has(entry))) required.add(entry);
    }
    visiting.delete(node);
    this.#requiredBefore.set(node, required);
    return required;
  }

  #isCyclic(component: number): boolean {
    const members = this.#components[component] ?? [];
    const first = members[0];
    return members.length > 1 || (first !== undefined && this.successors(first).includes(first));
  }

  /**
   * Transitive closure over the components, one bitset each, built once and only when a reference
   * needs it: linear in edges × components / 32, so thousands of back-edge reads stay cheap.
   * Tarjan emits components in reverse topological order, so every successor component of
   * component c has a smaller index and is complete when c is built.
   */
  #buildClosure(): Uint32Array[] {
    const count = this.#components.length;
    const words = (count + 31) >>> 5;
    const closure: Uint32Array[] = [];
    for (let component = 0; component < count; component += 1) {
      const bits = new Uint32Array(words);
      for (const member of this.#components[component] as StepEntry[]) {
        for (const successor of this.successors(member)) {
          const target = this.#componentOf.get(successor) as number;
          if (target === component) continue;
          bits[target >>> 5] = (bits[target >>> 5] as number) | (1 << (target & 31));
          const inherited = closure[target] as Uint32Array;
          for (let word = 0; word < words; word += 1) bits[word] = (bits[word] as number) | (inherited[word] as number);
        }
      }
      closure.push(bits);
    }
    return closure;
  }

  /** Tarjan's algorithm, iterative so a long list cannot exhaust the call stack. */
  #computeComponents(): void {
    const index = new Map<StepEntry, number>();
    const lowLink = new Map<StepEntry, number>();
    const onStack = new Set<StepEntry>();
    const stack: StepEntry[] = [];
    let counter = 0;
    for (const root of this.nodes) {
      if (index.has(root)) continue;
      const work: { node: StepEntry; next: number }[] = [{ node: root, next: 0 }];
      index.set(root, counter);
      lowLink.set(root, counter);
      counter += 1;
      stack.push(root);
      onStack.add(root);
      while (work.length > 0) {
        const frame = work[work.length - 1] as { node: StepEntry; next: number };
        const successors = this.successors(frame.node);
        if (frame.next < successors.length) {
          const successor = successors[frame.next] as StepEntry;
          frame.next += 1;
          if (!index.has(successor)) {
            index.set(successor, counter);
            lowLink.set(successor, counter);
            counter += 1;
            stack.push(successor);
            onStack.add(successor);
            work.push({ node: successor, next: 0 });
          } else if (onStack.has(successor)) {
            lowLink.set(frame.node, Math.min(lowLink.get(frame.node) as number, index.get(successor) as number));
          }
          continue;
        }
        work.pop();
        const parent = work[work.length - 1];
        if (parent !== undefined) {
          lowLink.set(parent.node, Math.min(lowLink.get(parent.node) as number, lowLink.get(frame.node) as number));
        }
        if (lowLink.get(frame.node) === index.get(frame.node)) {
          const component: StepEntry[] = [];
          let member: StepEntry;
          do {
            member = stack.pop() as StepEntry;
            onStack.delete(member);
            component.push(member);
            this.#componentOf.set(member, this.#components.length);
          } while (member !== frame.node);
          component.sort((left, right) => left.index - right.index);
          this.#components.push(component);
        }
      }
    }
  }
}
