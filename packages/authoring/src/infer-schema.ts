/**
 * Type-level inference of the TypeScript type a schema describes, for the schema forms
 * `defineWorkflow` accepts: Zod v4 schemas, AI SDK `Schema<T>` wrappers, and JSON Schema literals
 * of the LWIR subset (written inline or `as const`). Anything not recognised infers `unknown`.
 */
type Simplify<T> = { [K in keyof T]: T[K] } & {};

type RequiredKeys<S> = S extends { readonly required: readonly (infer K)[] } ? K : never;

type FromJsonObject<S> = S extends { readonly properties: infer P }
  ? Simplify<
      { -readonly [K in keyof P as K extends RequiredKeys<S> ? K : never]: FromJsonSchema<P[K]> } & {
        -readonly [K in keyof P as K extends RequiredKeys<S> ? never : K]?: FromJsonSchema<P[K]>;
      }
    >
  : Record<string, unknown>;

type FromJsonType<S, T> = T extends "string"
  ? string
  : T extends "number" | "integer"
    ? number
    : T extends "boolean"
      ? boolean
      : T extends "null"
        ? null
        : T extends "array"
          ? S extends { readonly items: infer I }
            ? FromJsonSchema<I>[]
            : unknown[]
          : T extends "object"
            ? FromJsonObject<S>
            : unknown;

/** The type a JSON Schema literal describes (subset: type, properties, required, items, enum, const, anyOf, oneOf). */
export type FromJsonSchema<S> = S extends true
  ? unknown
  : S extends false
    ? never
    : S extends { readonly const: infer C }
      ? C
      : S extends { readonly enum: readonly (infer E)[] }
        ? E
        : S extends { readonly anyOf: readonly (infer B)[] }
          ? FromJsonSchema<B>
          : S extends { readonly oneOf: readonly (infer B)[] }
            ? FromJsonSchema<B>
            : S extends { readonly type: infer T }
              ? T extends readonly (infer U)[]
                ? FromJsonType<S, U>
                : FromJsonType<S, T>
              : unknown;

type ZodInternals = { readonly _zod: { readonly input: unknown; readonly output: unknown } };

/** What a caller passes for a schema (Zod: its input type). */
export type InferSchemaInput<S> = S extends ZodInternals
  ? S["_zod"]["input"]
  : S extends { readonly _type: infer T; readonly jsonSchema: unknown }
    ? T
    : FromJsonSchema<S>;

/** What a schema yields (Zod: its output type). */
export type InferSchemaOutput<S> = S extends ZodInternals
  ? S["_zod"]["output"]
  : S extends { readonly _type: infer T; readonly jsonSchema: unknown }
    ? T
    : FromJsonSchema<S>;

/** The output type of an output-mode spec (`{ kind | mode, … }`) or a bare schema (object mode). */
export type InferOutputMode<O> = O extends ZodInternals
  ? O["_zod"]["output"]
  : O extends { readonly responseFormat: PromiseLike<unknown>; readonly parseCompleteOutput: (...args: never[]) => Promise<infer T> }
    ? T // an AI SDK Output.text/object/array/choice
    : O extends { readonly kind: "text" } | { readonly mode: "text" }
    ? string
    : O extends { readonly kind: "choice"; readonly values: readonly (infer V)[] } | { readonly mode: "choice"; readonly values: readonly (infer V)[] }
      ? V
      : O extends { readonly kind: "array"; readonly element: infer E }
        ? InferSchemaOutput<E>[]
        : O extends { readonly kind: "object" | "json" | "array"; readonly schema: infer S } | { readonly mode: "object" | "json" | "array"; readonly schema: infer S }
          ? InferSchemaOutput<S>
          : O extends { readonly kind: "json" } | { readonly mode: "json" }
            ? unknown
            : InferSchemaOutput<O>;
