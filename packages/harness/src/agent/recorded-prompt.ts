import type { LanguageModelV3CallOptions, LanguageModelV3Prompt } from "@ai-sdk/provider";
import { sha256Digest, sha256DigestOfBytes } from "@little-stack/canonical";
import type { ModelRequest, RecordedMessage, ToolReference } from "../events/harness-event-types.js";

/**
 * The JSON form of a model request, as recorded in `harness.model.called` and hashed into
 * `promptHash`. Provider metadata is left out (it echoes response details that replay does not
 * reproduce) and assistant content is folded into one canonical shape (reasoning, text, tool
 * calls), so a replayed history hashes exactly like the live one did.
 */
export function recordModelRequest(options: {
  readonly provider: string;
  readonly modelId: string;
  readonly params: LanguageModelV3CallOptions;
}): ModelRequest {
  const { params } = options;
  const tools: ToolReference[] = (params.tools ?? []).map((tool) =>
    tool.type === "function"
      ? { name: tool.name, digest: sha256Digest(jsonOf({ description: tool.description ?? null, inputSchema: tool.inputSchema })) }
      : { name: tool.name, digest: sha256Digest({ id: tool.id, args: jsonOf(tool.args) }) },
  );
  const format = params.responseFormat;
  return {
    model: `${options.provider}:${options.modelId}`,
    messages: recordMessages(params.prompt),
    tools,
    ...(format === undefined || format.type === "text" ? {} : { responseFormat: jsonOf(format) as Record<string, unknown> }),
  };
}

function recordMessages(prompt: LanguageModelV3Prompt): RecordedMessage[] {
  return prompt.map((message): RecordedMessage => {
    switch (message.role) {
      case "system":
        return { role: "system", content: message.content };
      case "user":
        return { role: "user", content: message.content.map((part) => (part.type === "text" ? { type: "text", text: part.text } : filePart(part))) };
      case "assistant": {
        let reasoning = "";
        let text = "";
        const toolCalls: unknown[] = [];
        const other: unknown[] = [];
        for (const part of message.content) {
          if (part.type === "text") text += part.text;
          else if (part.type === "reasoning") reasoning += part.text;
          else if (part.type === "tool-call") toolCalls.push({ toolCallId: part.toolCallId, toolName: part.toolName, input: jsonOf(part.input) });
          else if (part.type === "file") other.push(filePart(part));
          else if (part.type === "tool-result") other.push({ type: part.type, toolCallId: part.toolCallId, output: jsonOf(part.output) });
        }
        return { role: "assistant", reasoning, text, toolCalls, ...(other.length > 0 ? { other } : {}) };
      }
      case "tool":
        return {
          role: "tool",
          content: message.content.map((part) =>
            part.type === "tool-result"
              ? { type: part.type, toolCallId: part.toolCallId, toolName: part.toolName, output: jsonOf(part.output) }
              : { type: part.type, approvalId: part.approvalId, approved: part.approved },
          ),
        };
    }
  });
}

function filePart(part: { type: string; mediaType: string; data: unknown; filename?: string }): RecordedMessage {
  const data = part.data;
  const digest =
    data instanceof Uint8Array ? sha256DigestOfBytes(data) : data instanceof URL ? data.href : typeof data === "string" ? sha256DigestOfBytes(data) : null;
  return { type: "file", mediaType: part.mediaType, data: digest, ...(part.filename === undefined ? {} : { filename: part.filename }) };
}

/**
 * The value as plain JSON: returned as is when it already is (the common case, no copy), else
 * copied the way JSON.stringify would (undefined dropped, bytes as digests), so hashing never throws.
 */
function jsonOf(value: unknown): unknown {
  if (value === undefined) return null;
  if (isPlainJson(value)) return value;
  return JSON.parse(JSON.stringify(value, (_key, inner: unknown) => (inner instanceof Uint8Array ? sha256DigestOfBytes(inner) : inner)) ?? "null") as unknown;
}

function isPlainJson(value: unknown): boolean {
  switch (typeof value) {
    case "string":
    case "boolean":
      return true;
    case "number":
      return Number.isFinite(value);
    case "object": {
      if (value === null) return true;
      if (Array.isArray(value)) {
        for (let index = 0; index < value.length; index += 1) if (!(index in value) || !isPlainJson(value[index])) return false;
        return Object.getPrototypeOf(value) === Array.prototype;
      }
      const prototype = Object.getPrototypeOf(value) as unknown;
      if (prototype !== Object.prototype && prototype !== null) return false;
      for (const key in value) if (!isPlainJson((value as Record<string, unknown>)[key])) return false;
      return true;
    }
    default:
      return false;
  }
}
