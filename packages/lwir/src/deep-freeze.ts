/** A value whose objects and arrays are all read-only, at every depth. */
export type DeepReadonly<T> = T extends (infer TItem)[]
  ? readonly DeepReadonly<TItem>[]
  : T extends readonly (infer TItem)[]
    ? readonly DeepReadonly<TItem>[]
    : T extends object
      ? { readonly [TKey in keyof T]: DeepReadonly<T[TKey]> }
      : T;

/**
 * Freezes a value and every object and array inside it, in place, and returns it. Iterative, so
 * deeply nested documents do not exhaust the stack; already-frozen objects are still descended
 * into, since a frozen parent can hold a mutable child.
 */
export function deepFreeze<T>(value: T): DeepReadonly<T> {
  const seen = new Set<object>();
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const current = stack.pop();
    if (typeof current !== "object" || current === null || seen.has(current)) continue;
    seen.add(current);
    Object.freeze(current);
    for (const key of Reflect.ownKeys(current)) {
      const descriptor = Object.getOwnPropertyDescriptor(current, key);
      if (descriptor !== undefined && "value" in descriptor) stack.push(descriptor.value);
    }
  }
  return value as DeepReadonly<T>;
}
