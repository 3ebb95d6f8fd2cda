/// <reference lib="dom" />
import htm from "htm";
import { h, type VNode } from "preact";

type Htm = { bind(factory: typeof h): (strings: TemplateStringsArray, ...values: unknown[]) => VNode };

/**
 * Tagged templates over preact: every interpolated value is text or a vnode, escaped by preact.
 * (htm's types describe its CommonJS build; the browser loads its ES module, whose default export
 * is the function.)
 */
export const html = (htm as unknown as Htm).bind(h);
