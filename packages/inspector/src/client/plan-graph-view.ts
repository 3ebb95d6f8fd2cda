/// <reference lib="dom" />
import type { PlanGraph } from "../server/plan-graph.js";
import { html } from "./html.js";

/**
 * The LWIR plan as an SVG graph, laid out by the server: boxes for steps (coloured by the status
 * of their latest path), dashed boxes for parallel groups, arrows for needs, purple arrows for
 * decision cases, dashed orange arrows for back-edges of loops.
 */
export function PlanGraphView(props: { readonly graph: PlanGraph; readonly statusOf: (stepId: string, nodeId: string) => string | undefined }) {
  const { graph } = props;
  const margin = 8;
  return html`<svg class="plan" role="img" aria-label="plan graph" width=${graph.width + margin * 2} height=${graph.height + margin * 2} viewBox=${`${-margin} ${-margin} ${graph.width + margin * 2} ${graph.height + margin * 2}`}>
    <defs>
      <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="#8a93a6" /></marker>
    </defs>
    ${graph.nodes
      .filter((node) => node.group)
      .map(
        (node) => html`<g class="group" data-step=${node.stepId}>
          <rect x=${node.x} y=${node.y} width=${node.width} height=${node.height} rx="8" />
          <text x=${node.x + 10} y=${node.y + 18}>${node.label} (parallel)</text>
        </g>`,
      )}
    ${graph.edges.map((edge) => {
      const points = edge.points.map((point) => `${point.x},${point.y}`).join(" ");
      const middle = edge.points[Math.floor(edge.points.length / 2)];
      return html`<g>
        <polyline class=${`edge ${edge.kind}`} points=${points} marker-end="url(#arrow)" data-edge=${edge.kind} />
        ${edge.label === undefined || middle === undefined ? "" : html`<text class="edge-label" x=${middle.x + 4} y=${middle.y - 3}>${edge.label}</text>`}
      </g>`;
    })}
    ${graph.nodes
      .filter((node) => !node.group)
      .map((node) => {
        const status = props.statusOf(node.stepId, node.id) ?? "";
        return html`<g class=${`node ${status}`} data-step=${node.stepId}>
          <rect x=${node.x} y=${node.y} width=${node.width} height=${node.height} rx=${node.uses === "decision" ? 14 : 4} />
          <text x=${node.x + 8} y=${node.y + 16}>${node.label}</text>
          <text class="uses" x=${node.x + 8} y=${node.y + 31}>${node.uses}</text>
        </g>`;
      })}
  </svg>`;
}
