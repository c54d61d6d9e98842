// The metrics of the server's report as the status bar shows them (the report
// itself is the server's HTML page, see reportPage.ts). Pure: no VS Code here.

export interface Metrics {
  claims: number;
  verified_claims: number;
  citation_validity: number | null;
  answers: number;
  faithful_answers: number;
  faithfulness: number | null;
  citations: number;
  resolved_citations: number;
  resolution: number | null;
  uncited_paragraphs: number;
  coverage: number | null;
}

/** A share as a whole percentage ("80%"), or an em dash when the figure is null. */
export function percent(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) {
    return '—';
  }
  const rounded = Math.round(value * 100);
  // Never show 100% for a share that is not complete, nor 0% for one that is not empty.
  if (rounded === 100 && value < 1) {
    return '99%';
  }
  if (rounded === 0 && value > 0) {
    return '1%';
  }
  return `${rounded}%`;
}

/** Reads the metrics out of whatever the server sent; undefined when it is not a metrics object. */
export function parseMetrics(value: unknown): Metrics | undefined {
  if (typeof value !== 'object' || value === null) {
    return undefined;
  }
  const record = value as Record<string, unknown>;
  const count = (key: string): number => (typeof record[key] === 'number' ? record[key] : 0);
  const share = (key: string): number | null => (typeof record[key] === 'number' ? record[key] : null);
  if (!('citation_validity' in record) && !('claims' in record)) {
    return undefined;
  }
  return {
    claims: count('claims'),
    verified_claims: count('verified_claims'),
    citation_validity: share('citation_validity'),
    answers: count('answers'),
    faithful_answers: count('faithful_answers'),
    faithfulness: share('faithfulness'),
    citations: count('citations'),
    resolved_citations: count('resolved_citations'),
    resolution: share('resolution'),
    uncited_paragraphs: count('uncited_paragraphs'),
    coverage: share('coverage'),
  };
}

export type StatusLevel = 'ok' | 'warning' | 'error' | 'empty';

export interface StatusView {
  text: string;
  /** Markdown for the tooltip. */
  tooltip: string;
  level: StatusLevel;
}

/** The status bar item: citation validity and faithfulness, with the counts behind them. */
export function statusView(metrics: Metrics): StatusView {
  if (metrics.claims === 0 && metrics.answers === 0) {
    return {
      text: '$(book) Cairn: no drafts',
      tooltip: 'Cairn found no drafts with citations in this workspace.',
      level: 'empty',
    };
  }
  const allVerified = metrics.claims > 0 && metrics.verified_claims === metrics.claims;
  const allFaithful = metrics.answers > 0 && metrics.faithful_answers === metrics.answers;
  const level: StatusLevel = allVerified && allFaithful ? 'ok' : metrics.verified_claims === 0 ? 'error' : 'warning';
  const icon = level === 'ok' ? '$(check)' : level === 'error' ? '$(error)' : '$(warning)';
  const text = `${icon} Cairn ${percent(metrics.citation_validity)} valid · ${percent(metrics.faithfulness)} faithful`;
  const tooltip = [
    '**Cairn citation check**',
    '',
    `- Citation validity **${percent(metrics.citation_validity)}**: ${metrics.verified_claims} of ${metrics.claims} claims verified`,
    `- Faithfulness **${percent(metrics.faithfulness)}**: ${metrics.faithful_answers} of ${metrics.answers} drafts fully verified`,
    `- Resolution **${percent(metrics.resolution)}**: ${metrics.resolved_citations} of ${metrics.citations} citations found in the sources`,
    `- Coverage **${percent(metrics.coverage)}**: ${metrics.uncited_paragraphs} uncited paragraphs`,
    '',
    'Click to see the problems.',
  ].join('\n');
  return { text, tooltip, level };
}
