// "Cairn: Find evidence": the server's answer to `cairn.evidence` (the claim at
// the cursor and the passages of the sources that best support it), checked
// and turned into quick pick rows. Pure: no VS Code here.

/** The server command behind "Find evidence": `[uri, position]` -> an evidence answer. */
export const EVIDENCE_COMMAND = 'cairn.evidence';

export interface Passage {
  /** "Cite sources/policy.md:11 · support 1.00", as the light bulb titles it. */
  title: string;
  source: string;
  supports: boolean;
  supportScore: number;
  /** Why the passage falls short of supporting the claim, when it does. */
  why: string | null;
  quote: string;
  /** The protocol WorkspaceEdit that inserts its cite block after the claim; null when it cannot go there. */
  edit: unknown;
}

export interface Evidence {
  /** The claim text at the cursor; null when the cursor is not in an uncited paragraph or failing claim. */
  claim: string | null;
  passages: Passage[];
  /** The server's word on why there is no claim. */
  message: string | null;
}

export interface PickRow {
  label: string;
  description: string;
  detail: string;
  passage: Passage;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The server's answer, checked; an answer of another shape is an error. */
export function parseEvidence(answer: unknown): Evidence {
  if (!isObject(answer) || !Array.isArray(answer.passages) || !(answer.claim === null || typeof answer.claim === 'string')) {
    throw new Error('the Cairn server sent no evidence for this paragraph.');
  }
  const passages: Passage[] = [];
  for (const p of answer.passages) {
    if (!isObject(p) || typeof p.title !== 'string' || typeof p.quote !== 'string' || typeof p.source !== 'string') {
      throw new Error('the Cairn server sent a passage without its source or text.');
    }
    passages.push({
      title: p.title,
      source: p.source,
      supports: p.supports === true,
      supportScore: typeof p.support_score === 'number' ? p.support_score : 0,
      why: typeof p.why === 'string' ? p.why : null,
      quote: p.quote,
      edit: isObject(p.edit) ? p.edit : null,
    });
  }
  return {
    claim: answer.claim,
    passages,
    message: typeof answer.message === 'string' ? answer.message : null,
  };
}

/** One line of text: runs of white space (the source's line breaks) as one space. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The quick pick rows, best first: a passage that supports the claim says so, one that does not says why. */
export function pickRows(evidence: Evidence): PickRow[] {
  return evidence.passages.map((passage) => ({
    label: `${passage.supports ? '$(pass)' : '$(circle-slash)'} ${passage.title.replace(/^Cite /, '')}`,
    description: passage.supports ? 'supports the claim' : `does not support it: ${passage.why ?? 'too little in common'}`,
    detail: oneLine(passage.quote),
    passage,
  }));
}

/** The quick pick's title: the claim's first words. */
export function pickTitle(claim: string): string {
  const words = oneLine(claim).split(' ');
  return `Evidence for “${words.slice(0, 10).join(' ')}${words.length > 10 ? '…' : ''}”`;
}
