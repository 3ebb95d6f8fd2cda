// Public surface of @little-stack/testing: an explicit list of named exports.
export { createScriptedModel, type ScriptedModel } from "./scripted-model/create-scripted-model.js";
export { defaultScriptedUsage, type ScriptedToolCall, type ScriptedTurn, type ScriptedUsage } from "./scripted-model/scripted-turn.js";
export { ScriptedModelError, ScriptExhaustedError } from "./scripted-model/script-exhausted-error.js";
export {
  startLoopbackOpenAIServer,
  type LoopbackAnswers,
  type LoopbackOpenAIServer,
  type LoopbackRequest,
  type LoopbackRespond,
} from "./loopback-server/start-loopback-openai-server.js";
export {
  fileBackedAnswers,
  FileBackedAnswersOptionError,
  type FileBackedAnswers,
  type FileBackedAnswersOptions,
  type FileBackedRequest,
} from "./loopback-server/file-backed-answers.js";
export { startFileBackedOpenAIServer, type FileBackedOpenAIServer } from "./loopback-server/start-file-backed-openai-server.js";
export { chatRequestParts, type ChatMessage, type ChatRequestParts, type ChatResponseFormat, type ChatTool } from "./loopback-server/chat-request-parts.js";

export { sampleFromSchema } from "./schema-answers/sample-from-schema.js";
export { SchemaSampleError } from "./schema-answers/schema-sample-error.js";
export {
  createSchemaAnsweringModel,
  defaultTextAnswer,
  type SchemaAnsweringModel,
  type SchemaAnsweringModelOptions,
} from "./schema-answers/create-schema-answering-model.js";

export { openJsonlHarnessEventSink } from "./event-sinks/open-jsonl-harness-event-sink.js";
export {
  scriptedOrProviderModels,
  type ScriptedOrProviderModels,
  type ScriptedOrProviderModelsOptions,
  withoutProviderVariables,
} from "./demo-models/scripted-or-provider-models.js";
export { runTypeScriptFile, type RunTypeScriptFileOptions, type TypeScriptFileResult } from "./child-process/run-type-script-file.js";
export { TsxUnavailableError } from "./child-process/tsx-unavailable-error.js";
