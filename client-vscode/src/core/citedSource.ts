// The exact cited text as a read-only document: the server answers go to
// definition on a superseded, PDF or HTML citation with a `cairn-source:`
// location, and the editor asks the server for that document's text. Pure:
// no VS Code here, so the protocol's edges are unit-tested.

/** The URI scheme of the server's cited-text documents. */
export const CITED_SOURCE_SCHEME = 'cairn-source';
/** The request that returns such a document's text: `{ uri }` -> `{ text }`. */
export const SOURCE_TEXT_REQUEST = 'cairn/sourceText';
/** The experimental client capability that asks the server for such locations. */
export const CITED_SOURCE_CAPABILITY = 'cairnSourceDocuments';

/** Adds the capability to a client's capabilities (other experimental entries are kept). */
export function withCitedSourceCapability(capabilities: { experimental?: unknown }): void {
  const current = capabilities.experimental;
  const base = typeof current === 'object' && current !== null && !Array.isArray(current) ? current : {};
  capabilities.experimental = { ...base, [CITED_SOURCE_CAPABILITY]: true };
}

/** The text of the server's answer; an answer of another shape is an error, never shown as text. */
export function sourceTextOf(answer: unknown): string {
  if (typeof answer === 'object' && answer !== null && typeof (answer as { text?: unknown }).text === 'string') {
    return (answer as { text: string }).text;
  }
  throw new Error('the Cairn server sent no text for this cited source.');
}
