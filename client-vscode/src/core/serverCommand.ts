// How the extension finds the Cairn language server. Pure: the editor, the
// Python extension and the file system come in as functions, so the order is
// unit-tested without VS Code.
import * as path from 'node:path';

/** The command line that starts `cairn serve`, and where it came from. */
export interface ServerCommand {
  command: string;
  args: string[];
  origin: 'setting' | 'python' | 'path';
  /** One line for the log: why this command was chosen. */
  description: string;
}

export interface ServerLookup {
  /** `cairn.server.path`, as the user wrote it (may be empty). */
  settingPath: string | undefined;
  /** The first workspace folder, to resolve a relative setting and `${workspaceFolder}`. */
  workspaceFolder: string | undefined;
  /** The user's home folder, to expand a leading `~`. */
  home: string;
  /** The interpreter selected in the Python extension, or undefined when there is none. */
  selectedInterpreter: () => Promise<string | undefined>;
  /** Whether `python` can import cairn. */
  interpreterHasCairn: (python: string) => Promise<boolean>;
  /** Whether a file exists and is executable. */
  isExecutable: (file: string) => boolean;
  /** The PATH variable, its separator, and (on Windows) PATHEXT. */
  envPath: string | undefined;
  pathDelimiter: string;
  pathExt?: string | undefined;
}

/** Every place that was looked at, for the error message when nothing is found. */
export class ServerNotFoundError extends Error {
  constructor(
    message: string,
    readonly tried: string[],
  ) {
    super(message);
    this.name = 'ServerNotFoundError';
  }
}

/** Expands `~` and `${workspaceFolder}` and makes a relative path absolute. */
export function expandSettingPath(
  value: string,
  workspaceFolder: string | undefined,
  home: string,
): string {
  let expanded = value.trim();
  if (expanded === '~' || expanded.startsWith('~/') || expanded.startsWith('~\\')) {
    expanded = path.join(home, expanded.slice(1));
  }
  if (workspaceFolder !== undefined) {
    expanded = expanded.split('${workspaceFolder}').join(workspaceFolder);
  }
  if (!path.isAbsolute(expanded) && workspaceFolder !== undefined) {
    expanded = path.resolve(workspaceFolder, expanded);
  }
  return expanded;
}

/** The first executable called `name` on PATH, as a shell would find it. */
export function findOnPath(
  name: string,
  envPath: string | undefined,
  delimiter: string,
  isExecutable: (file: string) => boolean,
  pathExt?: string,
): string | undefined {
  const extensions = pathExt ? ['', ...pathExt.split(';').filter((e) => e.length > 0)] : [''];
  for (const dir of (envPath ?? '').split(delimiter)) {
    if (dir.length === 0) {
      continue;
    }
    for (const ext of extensions) {
      const candidate = path.join(dir, name + ext);
      if (isExecutable(candidate)) {
        return candidate;
      }
    }
  }
  return undefined;
}

/**
 * The documented order: 1. the `cairn.server.path` setting; 2. the interpreter
 * selected in the Python extension, when it can import cairn
 * (`<python> -m cairn serve`); 3. `cairn` on PATH. A setting that points at
 * nothing usable is an error of its own: the user asked for that program, so
 * silently running another one would hide the mistake.
 */
export async function resolveServerCommand(lookup: ServerLookup): Promise<ServerCommand> {
  const tried: string[] = [];

  const setting = lookup.settingPath?.trim() ?? '';
  if (setting.length > 0) {
    const file = expandSettingPath(setting, lookup.workspaceFolder, lookup.home);
    if (!lookup.isExecutable(file)) {
      throw new ServerNotFoundError(
        `The cairn.server.path setting names "${file}", which is not an executable file.`,
        [`cairn.server.path: ${file} (not an executable file)`],
      );
    }
    return {
      command: file,
      args: ['serve'],
      origin: 'setting',
      description: `cairn.server.path setting: ${file}`,
    };
  }
  tried.push('cairn.server.path: not set');

  let python: string | undefined;
  try {
    python = await lookup.selectedInterpreter();
  } catch (error) {
    tried.push(`Python extension: ${String(error)}`);
  }
  if (python !== undefined) {
    if (await lookup.interpreterHasCairn(python)) {
      return {
        command: python,
        // -P: the working directory is not put on sys.path, so a workspace's own tomllib.py
        // (or yaml/, cairn/) is never imported by the server (it also starts outside the workspace)
        args: ['-P', '-m', 'cairn', 'serve'],
        origin: 'python',
        description: `interpreter selected in the Python extension: ${python}`,
      };
    }
    tried.push(`selected Python interpreter ${python}: cannot import cairn`);
  } else if (tried.length === 1) {
    tried.push('Python extension: not installed or no interpreter selected');
  }

  const onPath = findOnPath('cairn', lookup.envPath, lookup.pathDelimiter, lookup.isExecutable, lookup.pathExt);
  if (onPath !== undefined) {
    return { command: onPath, args: ['serve'], origin: 'path', description: `cairn on PATH: ${onPath}` };
  }
  tried.push('PATH: no cairn executable');

  throw new ServerNotFoundError(
    'Cairn could not find its language server. Install Cairn in a Python environment, select that interpreter, or set cairn.server.path.',
    tried,
  );
}
