/**
 * The parts of an OpenAI chat-completions request body that a model sees, read defensively (the
 * body is whatever a client sent): messages, offered tools, tool_choice and response_format.
 */
export type ChatMessage = {
  readonly role: string;
  readonly content?: unknown;
  readonly name?: string;
  readonly tool_calls?: readonly { readonly id?: string; readonly function?: { readonly name?: string; readonly arguments?: string } }[];
  readonly tool_call_id?: string;
  readonly reasoning_content?: string;
};

export type ChatTool = { readonly name: string; readonly description?: string; readonly parameters?: unknown; readonly strict?: boolean };

export type ChatResponseFormat = { readonly type: string; readonly name?: string; readonly description?: string; readonly schema?: unknown; readonly strict?: boolean };

export type ChatRequestParts = {
  readonly model: string;
  readonly messages: readonly ChatMessage[];
  readonly tools: readonly ChatTool[];
  readonly toolChoice?: unknown;
  readonly responseFormat?: ChatResponseFormat;
};

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function chatRequestParts(body: Record<string, unknown>): ChatRequestParts {
  const messages = Array.isArray(body.messages) ? body.messages.filter(isObject).map((message) => message as unknown as ChatMessage) : [];
  const tools: ChatTool[] = [];
  for (const entry of Array.isArray(body.tools) ? body.tools : []) {
    const fn = isObject(entry) && isObject(entry.function) ? entry.function : undefined;
    if (fn === undefined || typeof fn.name !== "string") continue;
    tools.push({
      name: fn.name,
      ...(typeof fn.description === "string" ? { description: fn.description } : {}),
      ...(fn.parameters === undefined ? {} : { parameters: fn.parameters }),
      ...(typeof fn.strict === "boolean" ? { strict: fn.strict } : {}),
    });
  }
  return {
    model: typeof body.model === "string" ? body.model : "(no model)",
    messages,
    tools,
    ...(body.tool_choice === undefined ? {} : { toolChoice: body.tool_choice }),
    ...(isObject(body.response_format) ? { responseFormat: responseFormatOf(body.response_format) } : {}),
  };
}

function responseFormatOf(format: Record<string, unknown>): ChatResponseFormat {
  const type = typeof format.type === "string" ? format.type : "unknown";
  const inner = isObject(format.json_schema) ? format.json_schema : undefined;
  if (inner === undefined) return { type };
  return {
    type,
    ...(typeof inner.name === "string" ? { name: inner.name } : {}),
    ...(typeof inner.description === "string" ? { description: inner.description } : {}),
    ...(inner.schema === undefined ? {} : { schema: inner.schema }),
    ...(typeof inner.strict === "boolean" ? { strict: inner.strict } : {}),
  };
}

/** True when the response format asks for JSON text (`json_object` or `json_schema`). */
export function asksForJson(parts: ChatRequestParts): boolean {
  return parts.responseFormat?.type === "json_object" || parts.responseFormat?.type === "json_schema";
}
