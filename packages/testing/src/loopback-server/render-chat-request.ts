import { chatRequestParts, type ChatMessage, type ChatRequestParts } from "./chat-request-parts.js";

/**
 * A chat-completions request as Markdown for whoever plays the model: the system prompt, every
 * message in order (assistant tool calls with their ids and arguments, tool results under the id
 * they answer), the tools with their parameter schemas, tool_choice and the response format —
 * what the model receives and nothing else (no run ids, hashes or expected answers). JSON is
 * pretty-printed; that changes the layout, never the content. The last section says which file to
 * write.
 */
export function renderChatRequest(options: { readonly body: Record<string, unknown>; readonly number: string }): string {
  const parts = chatRequestParts(options.body);
  const lines: string[] = [`# Model request ${options.number}`, "", `Model: \`${parts.model}\``, ""];
  const system = parts.messages.filter((message) => message.role === "system" || message.role === "developer");
  const conversation = parts.messages.filter((message) => message.role !== "system" && message.role !== "developer");
  for (const message of system) lines.push(`## ${message.role === "system" ? "System" : "Developer"}`, "", contentText(message.content), "");
  lines.push("## Messages", "");
  conversation.forEach((message, index) => lines.push(...renderMessage(message, index + 1, parts)));
  lines.push(...renderTools(parts), ...renderResponseFormat(parts), ...renderAnswerHint(parts, options.number));
  return `${lines.join("\n").trimEnd()}\n`;
}

function renderMessage(message: ChatMessage, position: number, parts: ChatRequestParts): string[] {
  if (message.role === "tool") {
    const name = toolNameForCall(parts, message.tool_call_id);
    return [`### ${position} · tool result for \`${message.tool_call_id ?? "?"}\`${name === undefined ? "" : ` (${name})`}`, "", jsonOrText(contentText(message.content)), ""];
  }
  const lines = [`### ${position} · ${message.role}`, ""];
  if (message.reasoning_content !== undefined && message.reasoning_content.length > 0) lines.push("Reasoning:", "", fenced(message.reasoning_content, ""), "");
  const text = contentText(message.content);
  if (text.length > 0) lines.push(text, "");
  for (const call of message.tool_calls ?? []) {
    lines.push(`Tool call \`${call.function?.name ?? "?"}\` (id \`${call.id ?? "?"}\`), arguments:`, "", jsonOrText(call.function?.arguments ?? ""), "");
  }
  return lines;
}

function renderTools(parts: ChatRequestParts): string[] {
  if (parts.tools.length === 0) return ["## Tools", "", "None: answer with text.", ""];
  const lines = ["## Tools you may call", ""];
  for (const tool of parts.tools) {
    lines.push(`### \`${tool.name}\``, "");
    if (tool.description !== undefined) lines.push(tool.description, "");
    lines.push(`Parameters (JSON Schema${tool.strict === true ? ", strict" : ""}):`, "", fenced(JSON.stringify(tool.parameters ?? {}, null, 2), "json"), "");
  }
  if (parts.toolChoice !== undefined) lines.push(`tool_choice: \`${JSON.stringify(parts.toolChoice)}\``, "");
  return lines;
}

function renderResponseFormat(parts: ChatRequestParts): string[] {
  const format = parts.responseFormat;
  if (format === undefined) return [];
  const lines = ["## Response format", ""];
  if (format.type === "json_schema") {
    lines.push(`JSON matching this schema${format.name === undefined ? "" : ` (name \`${format.name}\`)`}${format.strict === true ? ", strict" : ""}:`, "");
    if (format.description !== undefined) lines.push(format.description, "");
    lines.push(fenced(JSON.stringify(format.schema ?? {}, null, 2), "json"), "");
  } else if (format.type === "json_object") {
    lines.push("A JSON object (json_object mode: no schema is enforced).", "");
  } else {
    lines.push(`\`${format.type}\``, "");
  }
  return lines;
}

function renderAnswerHint(parts: ChatRequestParts, number: string): string[] {
  const tools = parts.tools.length === 0 ? "" : ` or \`{ "toolCalls": [{ "toolName": "${parts.tools[0]!.name}", "args": { … } }] }\``;
  const json = parts.responseFormat === undefined ? "" : ' ("text" holds the JSON as a string)';
  return ["---", "", `Answer: write \`${number}.response.json\` with \`{ "text": "…" }\`${json}${tools}.`];
}

function toolNameForCall(parts: ChatRequestParts, callId: string | undefined): string | undefined {
  for (const message of parts.messages) for (const call of message.tool_calls ?? []) if (call.id === callId) return call.function?.name;
  return undefined;
}

/** A message's content as text: a string as is, text parts joined, other parts as JSON. */
function contentText(content: unknown): string {
  if (content === undefined || content === null) return "";
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return JSON.stringify(content);
  return content
    .map((part: unknown) => {
      const entry = part as { type?: unknown; text?: unknown };
      return entry.type === "text" && typeof entry.text === "string" ? entry.text : JSON.stringify(part);
    })
    .join("\n\n");
}

/** JSON text pretty-printed in a fence; anything else in a plain fence (it may hold Markdown). */
function jsonOrText(text: string): string {
  try {
    return fenced(JSON.stringify(JSON.parse(text) as unknown, null, 2), "json");
  } catch {
    return fenced(text, "");
  }
}

/** A code fence longer than any run of backticks inside the text, so the text cannot close it. */
function fenced(text: string, language: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((match) => match[0].length));
  const fence = "`".repeat(longest + 1);
  return `${fence}${language}\n${text}\n${fence}`;
}
