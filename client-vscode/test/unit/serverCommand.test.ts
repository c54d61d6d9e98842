import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import {
  expandSettingPath,
  findOnPath,
  resolveServerCommand,
  ServerNotFoundError,
  type ServerLookup,
} from '../../src/core/serverCommand';

const root = path.resolve('/ws');

function lookup(overrides: Partial<ServerLookup> & { executables?: string[] }): ServerLookup {
  const executables = new Set(overrides.executables ?? []);
  return {
    settingPath: undefined,
    workspaceFolder: root,
    home: path.resolve('/home/writer'),
    selectedInterpreter: () => Promise.resolve(undefined),
    interpreterHasCairn: () => Promise.resolve(false),
    isExecutable: (file) => executables.has(file),
    envPath: [path.resolve('/usr/local/bin'), path.resolve('/usr/bin')].join(path.delimiter),
    pathDelimiter: path.delimiter,
    ...overrides,
  };
}

describe('resolveServerCommand', () => {
  it('takes the cairn.server.path setting first, even with an interpreter and PATH available', async () => {
    const cairn = path.resolve('/opt/cairn/bin/cairn');
    const command = await resolveServerCommand(
      lookup({
        settingPath: cairn,
        executables: [cairn, path.resolve('/usr/bin/cairn')],
        selectedInterpreter: () => Promise.resolve('/venv/bin/python'),
        interpreterHasCairn: () => Promise.resolve(true),
      }),
    );
    assert.deepEqual(command.command, cairn);
    assert.deepEqual(command.args, ['serve']);
    assert.equal(command.origin, 'setting');
  });

  it('reports a setting that names no executable instead of falling back silently', async () => {
    await assert.rejects(
      resolveServerCommand(lookup({ settingPath: '/nowhere/cairn', executables: [path.resolve('/usr/bin/cairn')] })),
      (error: unknown) => error instanceof ServerNotFoundError && /cairn\.server\.path/.test(error.message),
    );
  });

  it('resolves a relative setting against the workspace folder', async () => {
    const cairn = path.join(root, '.venv', 'bin', 'cairn');
    const command = await resolveServerCommand(lookup({ settingPath: '.venv/bin/cairn', executables: [cairn] }));
    assert.equal(command.command, cairn);
  });

  it('runs the selected interpreter with -P -m cairn serve when it can import cairn', async () => {
    let asked: string | undefined;
    const command = await resolveServerCommand(
      lookup({
        executables: [path.resolve('/usr/bin/cairn')],
        selectedInterpreter: () => Promise.resolve('/venv/bin/python'),
        interpreterHasCairn: (python) => {
          asked = python;
          return Promise.resolve(true);
        },
      }),
    );
    assert.equal(asked, '/venv/bin/python');
    assert.equal(command.command, '/venv/bin/python');
    assert.deepEqual(command.args, ['-P', '-m', 'cairn', 'serve']);
    assert.equal(command.origin, 'python');
  });

  it('skips an interpreter without cairn and takes cairn from PATH', async () => {
    const command = await resolveServerCommand(
      lookup({
        executables: [path.resolve('/usr/bin/cairn')],
        selectedInterpreter: () => Promise.resolve('/usr/bin/python3'),
        interpreterHasCairn: () => Promise.resolve(false),
      }),
    );
    assert.equal(command.command, path.resolve('/usr/bin/cairn'));
    assert.deepEqual(command.args, ['serve']);
    assert.equal(command.origin, 'path');
  });

  it('survives a failing Python extension and goes on to PATH', async () => {
    const command = await resolveServerCommand(
      lookup({
        executables: [path.resolve('/usr/local/bin/cairn')],
        selectedInterpreter: () => Promise.reject(new Error('Python extension failed to activate')),
      }),
    );
    assert.equal(command.origin, 'path');
  });

  it('lists every place it looked when nothing is found', async () => {
    await assert.rejects(
      resolveServerCommand(lookup({ selectedInterpreter: () => Promise.resolve('/venv/bin/python') })),
      (error: unknown) => {
        assert.ok(error instanceof ServerNotFoundError);
        assert.equal(error.tried.length, 3);
        assert.match(error.tried[0] ?? '', /cairn\.server\.path: not set/);
        assert.match(error.tried[1] ?? '', /cannot import cairn/);
        assert.match(error.tried[2] ?? '', /PATH/);
        return true;
      },
    );
  });
});

describe('findOnPath', () => {
  it('returns the first match in PATH order and skips empty entries', () => {
    const first = path.resolve('/a/cairn');
    const second = path.resolve('/b/cairn');
    const found = findOnPath(
      'cairn',
      ['', path.resolve('/a'), path.resolve('/b')].join(path.delimiter),
      path.delimiter,
      (file) => file === first || file === second,
    );
    assert.equal(found, first);
  });

  it('tries the PATHEXT extensions on Windows-style lookups', () => {
    const exe = path.join(path.resolve('/py/Scripts'), 'cairn.EXE');
    const found = findOnPath('cairn', path.resolve('/py/Scripts'), ';', (file) => file === exe, '.COM;.EXE');
    assert.equal(found, exe);
  });

  it('returns undefined without PATH', () => {
    assert.equal(findOnPath('cairn', undefined, ':', () => true), undefined);
  });
});

describe('expandSettingPath', () => {
  it('expands ~ and ${workspaceFolder}', () => {
    assert.equal(expandSettingPath('~/bin/cairn', root, path.resolve('/home/w')), path.join(path.resolve('/home/w'), 'bin/cairn'));
    assert.equal(expandSettingPath('${workspaceFolder}/.venv/bin/cairn', root, '/h'), path.join(root, '.venv/bin/cairn'));
  });

  it('keeps an absolute path', () => {
    assert.equal(expandSettingPath('  /opt/cairn  ', root, '/h'), '/opt/cairn');
  });
});
