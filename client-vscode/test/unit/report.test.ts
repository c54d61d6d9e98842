import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseMetrics, percent, statusView, type Metrics } from '../../src/core/report';

const metrics: Metrics = {
  claims: 10,
  verified_claims: 8,
  citation_validity: 0.8,
  answers: 3,
  faithful_answers: 1,
  faithfulness: 1 / 3,
  citations: 12,
  resolved_citations: 11,
  resolution: 11 / 12,
  uncited_paragraphs: 2,
  coverage: 10 / 12,
};

describe('percent', () => {
  it('rounds to whole percent and shows null as a dash', () => {
    assert.equal(percent(0.8), '80%');
    assert.equal(percent(1 / 3), '33%');
    assert.equal(percent(null), '—');
    assert.equal(percent(undefined), '—');
  });

  it('never rounds an incomplete share up to 100% or a non-empty one down to 0%', () => {
    assert.equal(percent(0.999), '99%');
    assert.equal(percent(1), '100%');
    assert.equal(percent(0.001), '1%');
    assert.equal(percent(0), '0%');
  });
});

describe('parseMetrics', () => {
  it('reads the metrics object of the report and of cairn/checked', () => {
    assert.deepEqual(parseMetrics({ ...metrics }), metrics);
  });

  it('keeps null figures as null and fills missing counts with 0', () => {
    const parsed = parseMetrics({ claims: 0, citation_validity: null });
    assert.equal(parsed?.citation_validity, null);
    assert.equal(parsed?.faithfulness, null);
    assert.equal(parsed?.answers, 0);
  });

  it('rejects what is not a metrics object', () => {
    assert.equal(parseMetrics(null), undefined);
    assert.equal(parseMetrics('0.8'), undefined);
    assert.equal(parseMetrics({ drafts: [] }), undefined);
  });
});

describe('statusView', () => {
  it('shows validity and faithfulness, with the counts in the tooltip', () => {
    const view = statusView(metrics);
    assert.equal(view.text, '$(warning) Cairn 80% valid · 33% faithful');
    assert.equal(view.level, 'warning');
    assert.match(view.tooltip, /8 of 10 claims verified/);
    assert.match(view.tooltip, /1 of 3 drafts fully verified/);
    assert.match(view.tooltip, /11 of 12 citations/);
  });

  it('shows support and source quality apart from resolution and coverage', () => {
    const parsed = parseMetrics({ ...metrics, support_rate: 0.8, source_quality: { official: 6, 'draft*': 2, bad: 'x' } });
    assert.ok(parsed);
    assert.equal(parsed.support_rate, 0.8);
    assert.deepEqual(parsed.source_quality, { official: 6, 'draft*': 2 });
    const view = statusView(parsed);
    assert.match(view.tooltip, /Support \*\*80%\*\*/);
    assert.match(view.tooltip, /Resolution \*\*92%\*\*/);
    assert.match(view.tooltip, /Source quality .*official 6, draft\\\* 2/);
    const noTiers = statusView({ ...metrics, support_rate: null, source_quality: null });
    assert.doesNotMatch(noTiers.tooltip, /Source quality/);
    assert.match(noTiers.tooltip, /Support \*\*—\*\*/);
  });

  it('is ok only when every claim is verified and every draft faithful', () => {
    const all = { ...metrics, verified_claims: 10, citation_validity: 1, faithful_answers: 3, faithfulness: 1 };
    assert.equal(statusView(all).level, 'ok');
    assert.match(statusView(all).text, /^\$\(check\) Cairn 100% valid · 100% faithful$/);
  });

  it('is an error when no claim is verified', () => {
    assert.equal(statusView({ ...metrics, verified_claims: 0, citation_validity: 0 }).level, 'error');
  });

  it('says so when there are no drafts, rather than showing dashes', () => {
    const none = parseMetrics({ claims: 0, answers: 0, citation_validity: null, faithfulness: null });
    assert.ok(none);
    const view = statusView(none);
    assert.equal(view.level, 'empty');
    assert.match(view.text, /no drafts/);
  });
});
