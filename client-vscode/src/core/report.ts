// The report of SPEC section 6 as the server sends it, and the text the
// extension makes of it. Pure: no VS Code here.

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

export interface ReportCitation {
  chunk_id: string;
  start: number;
  end: number;
  quote: string;
  resolved: boolean;
  source: string | null;
  page: number | null;
  version: string | null;
}

export interface ReportDiagnostic {
  code: string;
  severity: string;
  message: string;
  line: number;
}

export interface ReportClaim {
  text: string;
  line: number;
  supported: boolean;
  support_score: number | null;
  judge?: string | null;
  citations: ReportCitation[];
  diagnostics: ReportDiagnostic[];
}

export interface ReportDraft {
  path: string;
  faithful: boolean;
  claims: ReportClaim[];
}

export interface Report {
  drafts: ReportDraft[];
  metrics: Metrics;
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

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

function shorten(text: string, limit: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= limit ? flat : `${flat.slice(0, limit - 1)}…`;
}

function citationLabel(citation: ReportCitation): string {
  const where = citation.source ?? citation.chunk_id;
  return citation.page === null || citation.page === undefined ? where : `${where}, p. ${citation.page}`;
}

/**
 * The body of the report view: the metrics, then one table a draft with each
 * claim's verdict, score, sources and problems. Each claim row carries
 * data-path and data-line so the view can open the draft there.
 */
export function reportHtmlBody(report: Report): string {
  const m = report.metrics;
  const parts: string[] = [];
  parts.push('<h1>Cairn citation report</h1>');
  parts.push('<table class="metrics"><tbody>');
  const metricRow = (name: string, share: number | null, detail: string): void => {
    parts.push(
      `<tr><th>${escapeHtml(name)}</th><td class="num">${percent(share)}</td><td>${escapeHtml(detail)}</td></tr>`,
    );
  };
  metricRow('Citation validity', m.citation_validity, `${m.verified_claims} of ${m.claims} claims verified`);
  metricRow('Faithfulness', m.faithfulness, `${m.faithful_answers} of ${m.answers} drafts fully verified`);
  metricRow('Resolution', m.resolution, `${m.resolved_citations} of ${m.citations} citations resolved`);
  metricRow('Coverage', m.coverage, `${m.uncited_paragraphs} uncited paragraphs`);
  parts.push('</tbody></table>');

  if (report.drafts.length === 0) {
    parts.push('<p>No drafts with citations were found.</p>');
  }
  for (const draft of report.drafts) {
    const verdict = draft.faithful ? 'faithful' : 'not faithful';
    parts.push(
      `<h2><span class="badge ${draft.faithful ? 'ok' : 'bad'}">${verdict}</span> ${escapeHtml(draft.path)}</h2>`,
    );
    if (draft.claims.length === 0) {
      parts.push('<p>No claims.</p>');
      continue;
    }
    parts.push('<div class="scroll"><table class="claims"><thead><tr>');
    parts.push('<th>Line</th><th>Verdict</th><th>Claim</th><th>Support</th><th>Cited</th><th>Problems</th>');
    parts.push('</tr></thead><tbody>');
    for (const claim of draft.claims) {
      const verdictCell = claim.supported
        ? '<span class="badge ok">verified</span>'
        : '<span class="badge bad">not verified</span>';
      const score = claim.support_score === null ? '—' : claim.support_score.toFixed(2);
      const cited = claim.citations
        .map(
          (c) =>
            `<div class="${c.resolved ? '' : 'unresolved'}" title="${escapeHtml(c.quote)}">${escapeHtml(citationLabel(c))}</div>`,
        )
        .join('');
      const problems = claim.diagnostics
        .map(
          (d) =>
            `<div class="sev-${escapeHtml(d.severity)}"><code>${escapeHtml(d.code)}</code> ${escapeHtml(d.message)}</div>`,
        )
        .join('');
      parts.push(
        `<tr class="claim" data-path="${escapeHtml(draft.path)}" data-line="${claim.line}" tabindex="0">` +
          `<td class="num"><a href="#">${claim.line}</a></td><td>${verdictCell}</td>` +
          `<td class="text">${escapeHtml(shorten(claim.text, 200))}</td><td class="num">${score}</td>` +
          `<td>${cited}</td><td class="problems">${problems}</td></tr>`,
      );
    }
    parts.push('</tbody></table></div>');
  }
  return parts.join('\n');
}
