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
  /** Verified claims over the claims whose citations all resolved (absent from older servers). */
  support_rate?: number | null;
  /** Per authority tier, the verified claims whose weakest citation is in it; null without tiers. */
  source_quality?: Record<string, number> | null;
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
    // the policy's figures, from servers that send them
    ...('support_rate' in record ? { support_rate: share('support_rate') } : {}),
    ...('source_quality' in record ? { source_quality: tierCounts(record.source_quality) } : {}),
  };
}

/** `source_quality` as tier -> count, or null when it is not such an object. */
function tierCounts(value: unknown): Record<string, number> | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return null;
  }
  const out: Record<string, number> = {};
  for (const [tier, count] of Object.entries(value as Record<string, unknown>)) {
    if (typeof count === 'number' && Number.isFinite(count)) {
      out[tier] = count;
    }
  }
  return out;
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
    `- Support **${percent(metrics.support_rate)}**: verified among the claims whose citations all resolved`,
    `- Coverage **${percent(metrics.coverage)}**: ${metrics.uncited_paragraphs} uncited paragraphs`,
    ...sourceQualityLine(metrics.source_quality),
    '',
    'Click to see the problems.',
  ].join('\n');
  return { text, tooltip, level };
}

/** The tooltip's line on source quality (none without authority tiers); tier names are escaped. */
function sourceQualityLine(quality: Record<string, number> | null | undefined): string[] {
  if (!quality || Object.keys(quality).length === 0) {
    return [];
  }
  const parts = Object.entries(quality).map(([tier, n]) => `${tier.replace(/[\\`*_{}[\]()#+\-.!|<>&~]/g, '\\$&')} ${n}`);
  return [`- Source quality (verified claims by their weakest tier): ${parts.join(', ')}`];
}
