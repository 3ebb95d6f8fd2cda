/** A plain JSON value: what an event payload, a JSON artifact or an outer-loop manifest holds. */
export type JsonValue =
  | null
  | boolean
  | number
  | string
  | readonly JsonValue[]
  | { readonly [key: string]: JsonValue };

/** A JSON object (an outer-loop manifest, most event payloads). */
export type JsonObject = { readonly [key: string]: JsonValue };
