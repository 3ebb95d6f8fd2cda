import type { LanguageModelV3 } from "@ai-sdk/provider";
import { generateText, streamText, type LanguageModel, type Output, type ToolSet } from "ai";
import { unsupportedAiSdkModel } from "../contract/ai-sdk-support.js";
import { HarnessSessionError } from "../errors/harness-session-errors.js";
import type { HarnessSession, OpenHarnessSessionOptions } from "./harness-session.js";
import { openHarnessSession } from "./harness-session.js";

function requireModelObject(model: LanguageModel): LanguageModelV3 {
  if (typeof model === "string" || model.specificationVersion !== "v3") {
    const mismatch = unsupportedAiSdkModel(model);
    if (mismatch !== undefined) throw new HarnessSessionError("harness.unsupported_model", `A durable session needs an AI SDK V3 model object; ${mismatch}`);
    throw new HarnessSessionError(
      "harness.unsupported_model",
      `A durable session needs an AI SDK V3 model object (for example createOpenAICompatible(...)("model-id")); got ${typeof model === "string" ? `the model id string "${model}"` : `a ${model.specificationVersion} model`}.`,
    );
  }
  return model;
}

/** `generateText` with the session's model and tools: every model and tool call is durable. */
export function durableGenerateText<TOOLS extends ToolSet = ToolSet, OUTPUT extends Output.Output = Output.Output<string, string>>(
  session: HarnessSession,
  options: Parameters<typeof generateText<TOOLS, OUTPUT>>[0],
): ReturnType<typeof generateText<TOOLS, OUTPUT>> {
  return generateText<TOOLS, OUTPUT>({
    ...options,
    model: session.wrapModel(requireModelObject(options.model)),
    ...(options.tools === undefined ? {} : { tools: session.wrapTools(options.tools) }),
  });
}

/** `streamText` with the session's model and tools: every model and tool call is durable. */
export function durableStreamText<TOOLS extends ToolSet = ToolSet, OUTPUT extends Output.Output = Output.Output<string, string, never>>(
  session: HarnessSession,
  options: Parameters<typeof streamText<TOOLS, OUTPUT>>[0],
): ReturnType<typeof streamText<TOOLS, OUTPUT>> {
  return streamText<TOOLS, OUTPUT>({
    ...options,
    model: session.wrapModel(requireModelObject(options.model)),
    ...(options.tools === undefined ? {} : { tools: session.wrapTools(options.tools) }),
  });
}

/**
 * Opens (or resumes) a session, runs `body` in it, and records the outcome: `session.completed`
 * with the body's output and the token rollup, or `session.failed` with the error (rethrown).
 */
export async function runHarnessSession<T>(options: OpenHarnessSessionOptions & { readonly body: (session: HarnessSession) => Promise<T> }): Promise<T> {
  const session = await openHarnessSession(options);
  let output: T;
  try {
    output = await options.body(session);
  } catch (error) {
    await session.fail(error);
    throw error;
  }
  await session.complete({ output });
  return output;
}
