import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  CITED_SOURCE_CAPABILITY,
  sourceTextOf,
  withCitedSourceCapability,
} from '../../src/core/citedSource';

describe('withCitedSourceCapability', () => {
  it('adds the capability to empty capabilities', () => {
    const caps: { experimental?: unknown } = {};
    withCitedSourceCapability(caps);
    assert.deepEqual(caps.experimental, { [CITED_SOURCE_CAPABILITY]: true });
  });

  it('keeps the other experimental entries', () => {
    const caps: { experimental?: unknown } = { experimental: { other: 1 } };
    withCitedSourceCapability(caps);
    assert.deepEqual(caps.experimental, { other: 1, [CITED_SOURCE_CAPABILITY]: true });
  });

  it('replaces an experimental value that is not an object', () => {
    const caps: { experimental?: unknown } = { experimental: ['x'] };
    withCitedSourceCapability(caps);
    assert.deepEqual(caps.experimental, { [CITED_SOURCE_CAPABILITY]: true });
  });
});

describe('sourceTextOf', () => {
  it('returns the text of a well-formed answer', () => {
    assert.equal(sourceTextOf({ text: 'A customer has 30 days.' }), 'A customer has 30 days.');
    assert.equal(sourceTextOf({ text: '' }), '');
  });

  it('refuses any other shape', () => {
    for (const bad of [null, undefined, 'text', { text: 3 }, { body: 'x' }]) {
      assert.throws(() => sourceTextOf(bad), /no text/);
    }
  });
});
