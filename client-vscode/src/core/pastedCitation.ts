// A cite block pasted into a draft gets the `claim` field of the claim it is
// pasted under. The server decides everything (which claim, how the field is
// written); this side only spots clipboard text worth asking about and reads
// the answer. Pure: no VS Code here, so both edges are unit-tested.

/** The server command: `[uri, range, text]` -> `{ text, bound }`. */
export const BIND_PASTED_COMMAND = 'cairn.bindPasted';

// a fence whose info string's first word is `cite`, also in a list item or a block quote
const CITE_FENCE = /^[ \t>]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)?(?:`{3,}|~{3,})[ \t]*cite(?:[ \t]|$)/m;

/** Does this text hold a cite block's opening fence (and so may need binding)? */
export function holdsCiteFence(text: string): boolean {
  return CITE_FENCE.test(text);
}

/**
 * The text to paste instead of the clipboard's: the server's, when it bound at
 * least one citation; undefined when the plain paste is right (nothing bound,
 * or an answer of another shape).
 */
export function boundTextOf(answer: unknown): string | undefined {
  if (typeof answer !== 'object' || answer === null) {
    return undefined;
  }
  const { text, bound } = answer as { text?: unknown; bound?: unknown };
  return typeof text === 'string' && text.length > 0 && typeof bound === 'number' && bound > 0 ? text : undefined;
}
