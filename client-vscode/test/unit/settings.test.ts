import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { changeNeedsRestart, SERVER_SETTINGS, serverSection, type SettingsSource } from '../../src/core/settings';

const manifest = JSON.parse(readFileSync(path.join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as {
  contributes: { configuration: { properties: Record<string, unknown> } };
};

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

/**
 * Settings as VS Code gives them to the extension: `values` is the merged
 * tree of every scope (also unregistered keys a workspace wrote), `user` and
 * `defaults` what inspect() reports as globalValue and defaultValue.
 */
function source(values: Record<string, unknown>, user: Record<string, unknown> = {}, defaults: Record<string, unknown> = {}): SettingsSource {
  return {
    get: (key) => values[key] ?? defaults[key],
    inspect: (key) => ({ defaultValue: defaults[key], globalValue: user[key] }),
  };
}

describe('serverSection', () => {
  it('sends the registered settings the server reads, nested, without the client-side ones and the unset values', () => {
    const defaults = {
      'cairn.sources': ['sources'],
      'cairn.drafts': [],
      'cairn.threshold': 0.5,
      'cairn.support.mode': '',
      'cairn.judge.provider': 'stub',
      'cairn.judge.url': '',
      'cairn.judge.model': '',
      'cairn.judge.api_key_env': '',
      'cairn.server.path': '/opt/cairn',
      'cairn.trace.server': 'off',
    };
    assert.deepEqual(serverSection(source({}, {}, defaults)), {
      sources: ['sources'],
      drafts: [],
      threshold: 0.5,
      judge: { provider: 'stub' },
    });
  });

  it('keeps values that are set, including 0', () => {
    assert.deepEqual(serverSection(source({ 'cairn.threshold': 0, 'cairn.support.mode': 'seed' })), {
      threshold: 0,
      support: { mode: 'seed' },
    });
  });

  it('takes the judge URL from the user settings only, never from the workspace', () => {
    // what a workspace's `"cairn.judge": {"url": ...}` looks like through get()
    const merged = { 'cairn.judge.url': 'http://remote/v1', 'cairn.judge.model': 'm' };
    assert.deepEqual(serverSection(source(merged)), { judge: { model: 'm' } });
    assert.deepEqual(serverSection(source(merged, { 'cairn.judge.url': 'http://127.0.0.1:8000/v1' })), {
      judge: { url: 'http://127.0.0.1:8000/v1', model: 'm' },
    });
  });

  it('takes the ask URL from the user settings only, never from the workspace', () => {
    const merged = { 'cairn.ask.url': 'http://remote/v1', 'cairn.ask.provider': 'openai' };
    assert.deepEqual(serverSection(source(merged)), { ask: { provider: 'openai' } });
    assert.deepEqual(serverSection(source(merged, { 'cairn.ask.url': 'http://127.0.0.1:8000/v1' })), {
      ask: { provider: 'openai', url: 'http://127.0.0.1:8000/v1' },
    });
  });

  it('takes a shared index URL from the user settings only, never from the workspace', () => {
    const merged = { 'cairn.store.url': 'postgresql://db.example/cairn' };
    assert.deepEqual(serverSection(source(merged)), {});
    assert.deepEqual(serverSection(source(merged, { 'cairn.store.url': 'postgresql://team@db/cairn' })), {
      store: { url: 'postgresql://team@db/cairn' },
    });
  });

  it('takes the principal from the user settings only, never from the workspace', () => {
    const merged = { 'cairn.principal': 'counsel' };
    assert.deepEqual(serverSection(source(merged)), {});
    assert.deepEqual(serverSection(source(merged, { 'cairn.principal': 'reader' })), { principal: 'reader' });
  });

  it('registers cairn.principal as a machine setting restricted in untrusted workspaces', () => {
    const setting = manifest.contributes.configuration.properties['cairn.principal'] as { scope: string };
    assert.equal(setting.scope, 'machine');
    const trust = (manifest as unknown as { capabilities: { untrustedWorkspaces: { restrictedConfigurations: string[] } } })
      .capabilities.untrustedWorkspaces.restrictedConfigurations;
    assert.ok(trust.includes('cairn.principal'));
  });

  it('sends no key the extension does not register', () => {
    const asked: string[] = [];
    const spy: SettingsSource = {
      get: (key) => (asked.push(key), 'x'),
      inspect: (key) => (asked.push(key), { globalValue: 'x' }),
    };
    const section = serverSection(spy);
    const registered = Object.keys(manifest.contributes.configuration.properties);
    assert.deepEqual(asked.filter((key) => !registered.includes(key)), []);
    assert.equal(JSON.stringify(section).includes('server'), false);
    assert.equal(JSON.stringify(section).includes('trace'), false);
  });

  it('knows every registered setting: the server reads it, or the client does', () => {
    const registered = Object.keys(manifest.contributes.configuration.properties).sort();
    assert.deepEqual([...new Set([...SERVER_SETTINGS, 'cairn.trace.server'])].sort(), registered);
  });
});
