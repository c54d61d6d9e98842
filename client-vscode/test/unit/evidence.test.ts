import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { oneLine, parseEvidence, pickRows, pickTitle } from '../../src/core/evidence';

const edit = { documentChanges: [] };
const answer = {
  claim: 'Credits are issued to the original payment method within 5 business days of approval.',
  supported: true,
  passages: [
    {
      title: 'Cite sources/policy.md:11 · support 1.00',
      source: 'sources/policy.md',
      page: null,
      supports: true,
      support_score: 1,
      why: null,
      quote: 'Credits are issued to the original payment method within 5 business days of\napproval.',
      edit,
    },
    {
      title: 'Cite sources/faq.txt:4 · support 0.31',
      source: 'sources/faq.txt',
      supports: false,
      support_score: 0.31,
      why: 'support 0.31 < 0.5',
      quote: 'Refunds   take a week.',
      edit: null,
    },
  ],
};

describe('parseEvidence', () => {
  it('reads the passages of the server answer, best first', () => {
    const got = parseEvidence(answer);
    assert.equal(got.claim, answer.claim);
    assert.deepEqual(
      got.passages.map((p) => [p.source, p.supports, p.supportScore, p.why, p.edit]),
      [
        ['sources/policy.md', true, 1, null, edit],
        ['sources/faq.txt', false, 0.31, 'support 0.31 < 0.5', null],
      ],
    );
  });

  it('keeps the message of an answer without a claim', () => {
    const got = parseEvidence({ claim: null, passages: [], message: 'put the cursor in an uncited paragraph' });
    assert.equal(got.claim, null);
    assert.equal(got.message, 'put the cursor in an uncited paragraph');
  });

  it('refuses any other shape', () => {
    for (const bad of [null, 'x', { claim: 'a' }, { claim: 3, passages: [] }, { claim: 'a', passages: [{ title: 'x' }] }]) {
      assert.throws(() => parseEvidence(bad), /Cairn server sent/);
    }
  });
});

describe('pickRows', () => {
  it('labels each passage with its source and support, and shows its text on one line', () => {
    const rows = pickRows(parseEvidence(answer));
    assert.deepEqual(
      rows.map((r) => [r.label, r.description, r.detail]),
      [
        [
          '$(pass) sources/policy.md:11 · support 1.00',
          'supports the claim',
          'Credits are issued to the original payment method within 5 business days of approval.',
        ],
        ['$(circle-slash) sources/faq.txt:4 · support 0.31', 'does not support it: support 0.31 < 0.5', 'Refunds take a week.'],
      ],
    );
  });
});

describe('pickTitle and oneLine', () => {
  it('shortens a long claim to its first ten words', () => {
    assert.equal(pickTitle('one two three'), 'Evidence for “one two three”');
    assert.equal(pickTitle('a b c d e f g h i j k l'), 'Evidence for “a b c d e f g h i j…”');
    assert.equal(oneLine('  a\n  b\tc '), 'a b c');
  });
});
