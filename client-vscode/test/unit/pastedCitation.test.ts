import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { boundTextOf, holdsCiteFence } from '../../src/core/pastedCitation';

describe('holdsCiteFence', () => {
  it('finds a cite block as Copy selection as citation writes it', () => {
    assert.equal(holdsCiteFence('```cite\nchunk_id: 691d71e4b46d8b0d\nstart: 0\n```\n'), true);
  });

  it('finds tilde fences, longer fences, and fences in list items and block quotes', () => {
    assert.equal(holdsCiteFence('Some claim.\n\n~~~~ cite\nquote: "x"\n~~~~\n'), true);
    assert.equal(holdsCiteFence('- claim\n\n  - ```cite\n'), true);
    assert.equal(holdsCiteFence('> ```cite\n> {"chunk_id": "0"}\n> ```'), true);
  });

  it('ignores other fences, inline code and prose', () => {
    assert.equal(holdsCiteFence('```python\nprint(1)\n```\n'), false);
    assert.equal(holdsCiteFence('```citation\n```'), false);
    assert.equal(holdsCiteFence('Run `cite` with ```cite``` inline.'), false);
    assert.equal(holdsCiteFence('A plain sentence about cite blocks.'), false);
  });
});

describe('boundTextOf', () => {
  it('returns the bound text when the server bound citations', () => {
    assert.equal(boundTextOf({ text: '```cite\nclaim: "A"\n```\n', bound: 1 }), '```cite\nclaim: "A"\n```\n');
  });

  it('returns undefined when nothing was bound or the answer has another shape', () => {
    assert.equal(boundTextOf({ text: '```cite\n```\n', bound: 0 }), undefined);
    assert.equal(boundTextOf({ text: '', bound: 2 }), undefined);
    assert.equal(boundTextOf({ text: 3, bound: 1 }), undefined);
    assert.equal(boundTextOf({ text: 'x' }), undefined);
    assert.equal(boundTextOf(null), undefined);
    assert.equal(boundTextOf('```cite\n```'), undefined);
  });
});
