import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { reportPageOf } from '../../src/core/reportPage';

const CSP = `<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; script-src &#39;sha256-x&#39;">`;

describe('reportPageOf', () => {
  it('returns a page with its no-request policy', () => {
    const page = `<!DOCTYPE html>\n<html><head>${CSP}</head><body>report</body></html>`;
    assert.equal(reportPageOf({ html: page }), page);
  });

  it('refuses a page without the policy', () => {
    assert.throws(() => reportPageOf({ html: '<!DOCTYPE html>\n<html><body>x</body></html>' }), /content security policy/);
    const loose = `<!DOCTYPE html><meta http-equiv="Content-Security-Policy" content="default-src *">`;
    assert.throws(() => reportPageOf({ html: loose }), /content security policy/);
  });

  it('refuses an answer that is not a page', () => {
    for (const bad of [null, undefined, 'html', { html: 3 }, { html: '<p>x</p>' }, { page: '<!DOCTYPE html>' }]) {
      assert.throws(() => reportPageOf(bad), /no report page/);
    }
  });
});
