import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { changeNeedsRestart, settingsForServer } from '../../src/core/settings';

/** What ConfigurationChangeEvent.affectsConfiguration answers when `changed` settings changed. */
function affects(...changed: string[]): (section: string) => boolean {
  return (section) => changed.some((name) => name === section || name.startsWith(`${section}.`));
}

describe('changeNeedsRestart', () => {
  it('restarts for the server path and for every setting the server reads', () => {
    for (const name of ['cairn.server.path', 'cairn.sources', 'cairn.threshold', 'cairn.judge.url', 'cairn.support.mode']) {
      assert.equal(changeNeedsRestart(affects(name)), true, name);
    }
  });

  it('leaves the server alone when only the trace level changed', () => {
    assert.equal(changeNeedsRestart(affects('cairn.trace.server')), false);
  });

  it('restarts when the trace level changed together with a server setting', () => {
    assert.equal(changeNeedsRestart(affects('cairn.trace.server', 'cairn.drafts')), true);
  });

  it('ignores settings of other extensions', () => {
    assert.equal(changeNeedsRestart(affects('editor.fontSize', 'python.defaultInterpreterPath')), false);
  });
});

describe('settingsForServer', () => {
  it('drops the client-side settings and the unset values', () => {
    const section = {
      sources: ['sources'],
      drafts: [],
      threshold: 0.5,
      support: { mode: '' },
      judge: { provider: 'stub', url: '', model: '', api_key_env: '' },
      server: { path: '/opt/cairn' },
      trace: { server: 'off' },
    };
    assert.deepEqual(settingsForServer(section), {
      sources: ['sources'],
      drafts: [],
      threshold: 0.5,
      judge: { provider: 'stub' },
    });
  });

  it('keeps values that are set, including 0 and false', () => {
    assert.deepEqual(settingsForServer({ threshold: 0, support: { mode: 'seed' } }), {
      threshold: 0,
      support: { mode: 'seed' },
    });
  });

  it('passes a non-object through unchanged', () => {
    assert.equal(settingsForServer(null), null);
  });
});
