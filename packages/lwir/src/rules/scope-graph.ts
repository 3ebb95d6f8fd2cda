import { decisionTargets } from "./decision-rules.js";
import type { StepEntry, StepScope } from "./rule-context.js";

// Per-node data lives in arrays indexed by the node's position in `nodes` (one Map finds the
// position), not in a Map per relation: a 10,000-step plan's graph was ~8 MB of Map entries and
// copied arrays, alive through the whole validation and so promoted to V8's old generation, where
// it stayed as garbage for the rest of a long run.
const none: readonly StepEntry[] = Object.freeze([]);

/**
 * The execution graph of one list (lwir.md §4): an edge X → S when S needs X, and D → T when
 * decision D routes to T. Only first occurrences of valid ids are nodes.
 */
export class ScopeGraph {
  readonly nodes: readonly StepEntry[];
  readonly #positionOf = new Map<StepEntry, number>();
  /** By position; `none` where a node has no successor (most have one). */
  readonly #successors: (StepEntry[] | typeof none)[];
  /** By position; only decisions have targets. */
  readonly #decisionTargets: (StepEntry[] | typeof none)[];
  readonly #needsOf: (StepEntry[] | typeof none)[];
  readonly #decidersOf: (StepEntry[] | typeof none)[];
  /** By position: the node's strongly connected component. */
  readonly #componentOf: Int32Array;
  /** Each component's members in document order; a singleton (most are) is its one entry, not an array. */
  readonly #components: (StepEntry | StepEntry[])[] = [];
  #closure: Uint32Array[] | undefined;
  readonly #requiredBefore = new Map<StepEntry, ReadonlySet<StepEntry>>();

  constructor(scope: StepScope) {
    this.nodes = scope.entries.filter((entry) => entry.id !== undefined && !entry.isDuplicate);
    const count = this.nodes.length;
    this.nodes.forEach((node, position) => this.#positionOf.set(node, position));
    this.#successors = new Array(count).fill(none);
    this.#decisionTargets = new Array(count).fill(none);
    this.#needsOf = new Array(count).fill(none);
    this.#decidersOf = new Array(count).fill(none);
    this.#componentOf = new Int32Array(count);
    const add = (lists: (StepEntry[] | typeof none)[], position: number, entry: StepEntry): void => {
      const list = lists[position]!;
      if (list === none) lists[position] = [entry];
      else (list as StepEntry[]).push(entry);
    };
    for (let position = 0; position < count; position += 1) {
      const node = this.nodes[position]!;
      for (const need of node.needs) {
        const source = scope.byId.get(need.id);
        // A self-need is reported as invalid needs; it is not an execution edge.
        if (source !== undefined && source !== node) {
          add(this.#successors, this.#positionOf.get(source)!, node);
          add(this.#needsOf, position, source);
        }
      }
      if (node.uses !== "decision") continue;
      for (const target of decisionTargets(node)) {
        const step = scope.byId.get(target.id);
        if (step === undefined) continue;
        add(this.#decisionTargets, position, step);
        add(this.#successors, position, step);
        add(this.#decidersOf, this.#positionOf.get(step)!, node);
      }
    }
    this.#computeComponents();
  }

  successors(node: StepEntry): readonly StepEntry[] {
    return this.#byPosition(this.#successors, node);
  }

  /** Steps decision `node` routes to (empty for non-decisions). */
  targetsOf(node: StepEntry): readonly StepEntry[] {
    return this.#byPosition(this.#decisionTargets, node);
  }

  #byPosition(lists: readonly (readonly StepEntry[])[], node: StepEntry): readonly StepEntry[] {
    const position = this.#positionOf.get(node);
    return position === undefined ? none : lists[position]!;
  }

  /** The node's component, or undefined for a step that is not a node (invalid or duplicate id). */
  #component(node: StepEntry): number | undefined {
    const position = this.#positionOf.get(node);
    return position === undefined ? undefined : this.#componentOf[position];
  }

  /** Strongly connected components that contain a cycle (more than one node, or a self-loop). */
  cyclicComponents(): StepEntry[][] {
    const cyclic: StepEntry[][] = [];
    for (let component = 0; component < this.#components.length; component += 1) {
      if (this.#isCyclic(component)) cyclic.push([...this.#members(component)]);
    }
    return cyclic;
  }

  sameComponent(left: StepEntry, right: StepEntry): boolean {
    const component = this.#component(left);
    return component !== undefined && component === this.#component(right);
  }

  /** True when a path of at least one edge leads from `from` to `to`. */
  reaches(from: StepEntry, to: StepEntry): boolean {
    const fromComponent = this.#component(from);
    const toComponent = this.#component(to);
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
        const deciders = this.#byPosition(this.#decidersOf, entry);
        const decider = deciders[0];
        if (deciders.length !== 1 || decider === undefined || this.#isCyclic(this.#component(decider)!)) continue;
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
    for (const need of this.#byPosition(this.#needsOf, node)) {
      required.add(need);
      for (const entry of this.#requiredSet(need, visiting)) required.add(entry);
    }
    const forward = this.#byPosition(this.#decidersOf, node).filter((decider) => !this.sameComponent(decider, node));
    if (forward.length > 0) {
      const perDecider = forward.map((decider) => new Set([decider, ...this.#requiredSet(decider, visiting)]));
      for (const entry of perDecider[0] as Set<StepEntry>) if (perDecider.every((set) => set.has(entry))) required.add(entry);
    }
    visiting.delete(node);
    this.#requiredBefore.set(node, required);
    return required;
  }

  #members(component: number): readonly StepEntry[] {
    const members = this.#components[component];
    if (members === undefined) return none;
    return Array.isArray(members) ? members : [members];
  }

  #isCyclic(component: number): boolean {
    const members = this.#members(component);
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
      for (const member of this.#members(component)) {
        for (const successor of this.successors(member)) {
          const target = this.#component(successor)!;
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
    const count = this.nodes.length;
    // By position; index 0 means "not visited yet" (indexes start at 1).
    const index = new Int32Array(count);
    const lowLink = new Int32Array(count);
    const onStack = new Uint8Array(count);
    const stack: number[] = [];
    // The depth-first path: node positions and how many of each one's successors were taken.
    const path: number[] = [];
    const taken: number[] = [];
    let counter = 1;
    const visit = (position: number): void => {
      index[position] = counter;
      lowLink[position] = counter;
      counter += 1;
      stack.push(position);
      onStack[position] = 1;
      path.push(position);
      taken.push(0);
    };
    for (let root = 0; root < count; root += 1) {
      if (index[root] !== 0) continue;
      visit(root);
      while (path.length > 0) {
        const depth = path.length - 1;
        const position = path[depth]!;
        const successors = this.#successors[position]!;
        const next = taken[depth]!;
        if (next < successors.length) {
          taken[depth] = next + 1;
          const successor = this.#positionOf.get(successors[next]!)!;
          if (index[successor] === 0) visit(successor);
          else if (onStack[successor] === 1) lowLink[position] = Math.min(lowLink[position]!, index[successor]!);
          continue;
        }
        path.pop();
        taken.pop();
        const parent = path.at(-1);
        if (parent !== undefined) lowLink[parent] = Math.min(lowLink[parent]!, lowLink[position]!);
        if (lowLink[position] === index[position]) {
          const component: StepEntry[] = [];
          let member: number;
          do {
            member = stack.pop()!;
            onStack[member] = 0;
            component.push(this.nodes[member]!);
            this.#componentOf[member] = this.#components.length;
          } while (member !== position);
          component.sort((left, right) => left.index - right.index);
          this.#components.push(component.length === 1 ? component[0]! : component);
        }
      }
    }
  }
}
