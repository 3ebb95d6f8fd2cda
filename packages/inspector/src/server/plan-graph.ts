import { createRequire } from "node:module";
import type { ELK, ELKConstructorArguments, ElkExtendedEdge, ElkNode } from "elkjs/lib/elk-api.js";

// elkjs ships CommonJS: its bundled build (layout in this thread, no worker) is required.
const ElkConstructor = createRequire(import.meta.url)("elkjs/lib/elk.bundled.js") as { default: new (args?: ELKConstructorArguments) => ELK };

/** A step of the plan graph, positioned (absolute coordinates, top-left corner). */
export type PlanGraphNode = {
  readonly id: string;
  readonly stepId: string;
  readonly uses: string;
  readonly label: string;
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
  /** The parallel step whose body holds this step. */
  readonly parent?: string;
  /** A parallel step: a box around its body. */
  readonly group: boolean;
};

/** `needs`: data dependency; `decision`: a case or default of a decision; `back`: a decision edge that loops back. */
export type PlanGraphEdgeKind = "needs" | "decision" | "back";

export type PlanGraphEdge = {
  readonly id: string;
  readonly from: string;
  readonly to: string;
  readonly kind: PlanGraphEdgeKind;
  readonly label?: string;
  readonly points: readonly { readonly x: number; readonly y: number }[];
};

export type PlanGraph = {
  readonly width: number;
  readonly height: number;
  readonly nodes: readonly PlanGraphNode[];
  readonly edges: readonly PlanGraphEdge[];
};

type PlanStep = {
  readonly id: string;
  readonly uses: string;
  readonly needs?: readonly string[];
  readonly with?: { readonly cases?: readonly { readonly when?: unknown; readonly to?: unknown }[]; readonly default?: unknown };
  readonly steps?: readonly PlanStep[];
};

const nodeHeight = 40;
const layoutOptions = {
  "elk.algorithm": "layered",
  "elk.direction": "DOWN",
  "elk.hierarchyHandling": "INCLUDE_CHILDREN",
  "elk.layered.spacing.nodeNodeBetweenLayers": "36",
  "elk.spacing.nodeNode": "24",
  "elk.edgeRouting": "ORTHOGONAL",
  "elk.padding": "[top=28,left=12,bottom=12,right=12]",
};

const elk = new ElkConstructor.default();

/**
 * Lays the LWIR plan out as a graph (on the server: nothing of the layout library goes to the
 * browser): a node per step, a box per parallel step around its body, `needs` edges, decision
 * edges labelled with their case (a case that goes back to a step the decision depends on, or to
 * one listed before it, is a back-edge of a loop), and an `end` node where a decision ends its scope.
 */
export async function layoutPlanGraph(steps: readonly PlanStep[]): Promise<PlanGraph> {
  const root: ElkNode = { id: "plan", layoutOptions, children: [], edges: [] };
  const decisionKinds = new Map<string, PlanGraphEdgeKind>();
  const labels = new Map<string, string>();
  const uses = new Map<string, string>();
  buildList({ steps, container: root, prefix: "", decisionKinds, labels, uses });
  const laidOut = await elk.layout(root);
  const nodes: PlanGraphNode[] = [];
  const edges: PlanGraphEdge[] = [];
  collect({ node: laidOut, offsetX: 0, offsetY: 0, parent: undefined, nodes, edges, decisionKinds, labels, uses });
  return { width: Math.ceil(laidOut.width ?? 0), height: Math.ceil(laidOut.height ?? 0), nodes, edges };
}

function buildList(options: {
  readonly steps: readonly PlanStep[];
  readonly container: ElkNode;
  readonly prefix: string;
  readonly decisionKinds: Map<string, PlanGraphEdgeKind>;
  readonly labels: Map<string, string>;
  readonly uses: Map<string, string>;
}): void {
  const { steps, container, prefix } = options;
  const idOf = (stepId: string) => `${prefix}${stepId}`;
  const order = new Map(steps.map((step, index) => [step.id, index]));
  let needsEnd = false;
  for (const step of steps) {
    const id = idOf(step.id);
    const label = `${step.id}`;
    const width = Math.max(110, 14 + 7.4 * Math.max(label.length, step.uses.length + 2));
    const node: ElkNode = { id, width, height: nodeHeight, labels: [{ text: label }] };
    options.uses.set(id, step.uses);
    if (step.uses === "parallel" && step.steps !== undefined) {
      node.children = [];
      node.edges = [];
      node.layoutOptions = { "elk.padding": "[top=34,left=14,bottom=14,right=14]" };
      delete node.height;
      delete node.width;
      buildList({ ...options, steps: step.steps, container: node, prefix: `${id}/` });
    }
    container.children!.push(node);
    for (const need of step.needs ?? []) {
      if (!order.has(need)) continue;
      container.edges!.push(edge(`${idOf(need)}->${id}`, idOf(need), id));
    }
    if (step.uses === "decision") {
      const targets = [...(step.with?.cases ?? []).map((entry, index) => ({ to: entry.to, label: `case ${index + 1}` })), { to: step.with?.default, label: "default" }];
      const ancestors = ancestorsOf(step, steps);
      for (const target of targets) {
        if (typeof target.to !== "string") continue;
        const toId = target.to === "end" ? idOf("end") : idOf(target.to);
        if (target.to === "end") needsEnd = true;
        else if (!order.has(target.to)) continue;
        const back = target.to !== "end" && (ancestors.has(target.to) || (order.get(target.to) ?? 0) <= (order.get(step.id) ?? 0));
        const edgeId = `${id}=>${toId}#${target.label}`;
        options.decisionKinds.set(edgeId, back ? "back" : "decision");
        options.labels.set(edgeId, target.label);
        // A back-edge is laid out forwards (target → decision), so the loop reads top-down, and
        // turned around when collected.
        container.edges!.push(back ? edge(edgeId, toId, id) : edge(edgeId, id, toId));
      }
    }
  }
  if (needsEnd) {
    container.children!.push({ id: idOf("end"), width: 52, height: 28, labels: [{ text: "end" }] });
    options.uses.set(idOf("end"), "end");
  }
}

/** Steps a step depends on, directly or through other needs (a decision going to one loops back). */
function ancestorsOf(step: PlanStep, steps: readonly PlanStep[]): Set<string> {
  const byId = new Map(steps.map((entry) => [entry.id, entry]));
  const seen = new Set<string>();
  const pending = [...(step.needs ?? [])];
  while (pending.length > 0) {
    const next = pending.pop()!;
    if (seen.has(next)) continue;
    seen.add(next);
    pending.push(...(byId.get(next)?.needs ?? []));
  }
  return seen;
}

function edge(id: string, from: string, to: string): ElkExtendedEdge {
  return { id, sources: [from], targets: [to] };
}

function collect(options: {
  readonly node: ElkNode;
  readonly offsetX: number;
  readonly offsetY: number;
  readonly parent: string | undefined;
  readonly nodes: PlanGraphNode[];
  readonly edges: PlanGraphEdge[];
  readonly decisionKinds: ReadonlyMap<string, PlanGraphEdgeKind>;
  readonly labels: ReadonlyMap<string, string>;
  readonly uses: ReadonlyMap<string, string>;
}): void {
  const { node, offsetX, offsetY } = options;
  for (const elkEdge of node.edges ?? []) {
    const section = elkEdge.sections?.[0];
    const points = section === undefined ? [] : [section.startPoint, ...(section.bendPoints ?? []), section.endPoint].map((point) => ({ x: point.x + offsetX, y: point.y + offsetY }));
    const kind = options.decisionKinds.get(elkEdge.id) ?? "needs";
    const label = options.labels.get(elkEdge.id);
    const [from, to] = kind === "back" ? [elkEdge.targets[0]!, elkEdge.sources[0]!] : [elkEdge.sources[0]!, elkEdge.targets[0]!];
    options.edges.push({ id: elkEdge.id, from, to, kind, ...(label === undefined ? {} : { label }), points: kind === "back" ? points.reverse() : points });
  }
  for (const child of node.children ?? []) {
    const x = (child.x ?? 0) + offsetX;
    const y = (child.y ?? 0) + offsetY;
    const group = (child.children?.length ?? 0) > 0;
    const stepId = child.id.split("/").at(-1)!;
    options.nodes.push({
      id: child.id,
      stepId,
      uses: options.uses.get(child.id) ?? "",
      label: child.labels?.[0]?.text ?? stepId,
      x,
      y,
      width: child.width ?? 0,
      height: child.height ?? 0,
      ...(options.parent === undefined ? {} : { parent: options.parent }),
      group,
    });
    if (group) collect({ ...options, node: child, offsetX: x, offsetY: y, parent: child.id });
  }
}
