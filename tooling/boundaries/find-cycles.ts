/**
 * The cycles of a directed graph, one per strongly connected component that has one (Tarjan), each
 * written as the path that closes it: `["a", "b", "a"]`. Nodes and edges are visited in sorted
 * order so the output is stable.
 */
export function findCycles(edges: ReadonlyMap<string, readonly string[]>): string[][] {
  const nodes = [...new Set([...edges.keys(), ...[...edges.values()].flat()])].sort();
  const successors = (node: string): string[] => [...(edges.get(node) ?? [])].sort();
  const index = new Map<string, number>();
  const lowLink = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let counter = 0;

  // Recursive Tarjan is fine here: the graph has a few dozen nodes at most.
  const visit = (node: string): void => {
    index.set(node, counter);
    lowLink.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of successors(node)) {
      if (!index.has(next)) {
        visit(next);
        lowLink.set(node, Math.min(lowLink.get(node)!, lowLink.get(next)!));
      } else if (onStack.has(next)) {
        lowLink.set(node, Math.min(lowLink.get(node)!, index.get(next)!));
      }
    }
    if (lowLink.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      components.push(component);
    }
  };
  for (const node of nodes) if (!index.has(node)) visit(node);

  const cycles: string[][] = [];
  for (const component of components) {
    const members = new Set(component);
    const start = [...members].sort()[0]!;
    if (members.size === 1 && !successors(start).includes(start)) continue;
    cycles.push(cycleThrough(start, members, successors));
  }
  return cycles.sort((left, right) => left.join().localeCompare(right.join()));
}

/** A shortest path from `start` back to itself staying inside one component (breadth-first). */
function cycleThrough(start: string, members: ReadonlySet<string>, successors: (node: string) => string[]): string[] {
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const next of successors(node)) {
      if (!members.has(next)) continue;
      if (next === start) {
        const path = [node];
        while (path[0] !== start) path.unshift(previous.get(path[0]!)!);
        return [...path, start];
      }
      if (!previous.has(next)) {
        previous.set(next, node);
        queue.push(next);
      }
    }
  }
  return [start, start];
}
