import { chatRequestParts, type ChatRequestParts, type LoopbackRequest, type LoopbackRespond, type ScriptedTurn, type ScriptedUsage } from "@little-stack/testing";

/**
 * A scripted stand-in for the model under evaluation, answering the loopback server's requests
 * from the request itself: a planner request (it offers submit_workflow) gets a known-good LWIR
 * for the workflow its brief names, an orchestrator request (it offers plan_workflow) follows a
 * plan-once-run-many script, a fixer request (try_fix) gets a repaired file, any other request is
 * a worker step answered by the player of the definition whose prompt it matches.
 */
export type DefinitionPlayer = {
  /** The workflow ids this player plans (looked for in the planner brief). */
  readonly workflowIds: readonly string[];
  /** The LWIR to submit; `request` is the planner's (an outer-loop cycle's brief carries the supervisor's note). */
  plan(workflowId: string, request: PlayerRequest): Record<string, unknown>;
  /** A worker step's answer, or undefined when the request is not this definition's. */
  answer?(request: PlayerRequest): ScriptedTurn | undefined;
  orchestrate?(request: PlayerRequest): ScriptedTurn;
  fix?(request: PlayerRequest): ScriptedTurn;
};

export type PlayerRequest = {
  readonly parts: ChatRequestParts;
  /** The text of every user message, joined. */
  readonly userText: string;
  /** The schema of a json_schema response format. */
  readonly answerSchema?: Record<string, unknown>;
  /** Tool results in the conversation, in order. */
  readonly toolResults: readonly { readonly toolName: string; readonly value: unknown }[];
};

export const plannerUsage: ScriptedUsage = { inputTokens: 3_000, outputTokens: 900, cachedInputTokens: 1_000 };
export const workerUsage: ScriptedUsage = { inputTokens: 200, outputTokens: 40 };

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((part: { text?: unknown }) => (typeof part.text === "string" ? part.text : "")).join("\n");
  return "";
}

export function playerRequest(request: LoopbackRequest): PlayerRequest {
  const parts = chatRequestParts(request.body);
  const names = new Map<string, string>();
  for (const message of parts.messages) for (const call of message.tool_calls ?? []) if (call.id !== undefined) names.set(call.id, call.function?.name ?? "?");
  const toolResults = parts.messages
    .filter((message) => message.role === "tool")
    .map((message) => {
      const text = textOf(message.content);
      let value: unknown = text;
      try {
        value = JSON.parse(text) as unknown;
      } catch {
        // a plain-text tool result stays text
      }
      return { toolName: names.get(message.tool_call_id ?? "") ?? "?", value };
    });
  const schema = parts.responseFormat?.schema;
  return {
    parts,
    userText: parts.messages
      .filter((message) => message.role === "user")
      .map((message) => textOf(message.content))
      .join("\n"),
    ...(typeof schema === "object" && schema !== null ? { answerSchema: schema as Record<string, unknown> } : {}),
    toolResults,
  };
}

/**
 * The JSON text of an answer in the shape the response format asks for: the harness wraps some
 * output modes (a choice or a bare value in `{ result }`, an array in `{ elements }`).
 */
export function jsonAnswer(request: PlayerRequest, value: unknown): ScriptedTurn {
  const properties = (request.answerSchema?.properties ?? {}) as Record<string, unknown>;
  const keys = Object.keys(properties);
  const wrapper = keys.length === 1 && (keys[0] === "result" || keys[0] === "elements") && !(typeof value === "object" && value !== null && keys[0]! in value) ? keys[0] : undefined;
  return { text: JSON.stringify(wrapper === undefined ? value : { [wrapper]: value }), usage: workerUsage };
}

export function scriptedModelPlayer(players: readonly DefinitionPlayer[]): LoopbackRespond {
  return (request) => {
    const asked = playerRequest(request);
    const offered = asked.parts.tools.map((tool) => tool.name);
    if (offered.includes("submit_workflow")) {
      // The brief quotes the workflow id; the first (longest) id it contains is the one to plan.
      const ids = players.flatMap((player) => player.workflowIds.map((id) => ({ id, player }))).sort((a, b) => b.id.length - a.id.length);
      const match = ids.find(({ id }) => asked.userText.includes(`"${id}"`)) ?? ids.find(({ id }) => asked.userText.includes(id));
      if (match === undefined) return undefined;
      return { toolCalls: [{ toolName: "submit_workflow", args: { lwir: match.player.plan(match.id, asked) } }], usage: plannerUsage };
    }
    if (offered.includes("plan_workflow")) return players.find((player) => player.orchestrate !== undefined)?.orchestrate!(asked);
    if (offered.includes("try_fix")) return players.find((player) => player.fix !== undefined)?.fix!(asked);
    for (const player of players) {
      const answer = player.answer?.(asked);
      if (answer !== undefined) return answer;
    }
    return undefined;
  };
}
