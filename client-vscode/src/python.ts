// The interpreter selected in the Python extension, when that extension is
// installed. Never a hard dependency: without it these functions say
// "nothing selected" and the server is looked for elsewhere.
import { execFile } from 'node:child_process';
import * as os from 'node:os';
import * as vscode from 'vscode';

const PYTHON_EXTENSION_ID = 'ms-python.python';

/** The part of the Python extension's API (its `environments` namespace) that Cairn uses. */
interface PythonEnvironmentsApi {
  environments?: {
    getActiveEnvironmentPath(resource?: vscode.Uri | vscode.WorkspaceFolder): { id: string; path: string };
    resolveEnvironment(
      environment: { id: string; path: string } | string,
    ): Promise<{ executable: { uri: vscode.Uri | undefined } } | undefined>;
    readonly onDidChangeActiveEnvironmentPath: vscode.Event<unknown>;
  };
}

async function pythonApi(): Promise<PythonEnvironmentsApi | undefined> {
  const extension = vscode.extensions.getExtension<PythonEnvironmentsApi>(PYTHON_EXTENSION_ID);
  if (extension === undefined) {
    return undefined;
  }
  const api = extension.isActive ? extension.exports : await extension.activate();
  return api?.environments === undefined ? undefined : api;
}

/** The selected interpreter's executable for this folder, or undefined. */
export async function selectedInterpreter(folder: vscode.WorkspaceFolder | undefined): Promise<string | undefined> {
  const api = await pythonApi();
  const environments = api?.environments;
  if (environments === undefined) {
    return undefined;
  }
  const active = environments.getActiveEnvironmentPath(folder?.uri);
  const resolved = await environments.resolveEnvironment(active);
  return resolved?.executable.uri?.fsPath;
}

/** Calls `listener` when the user selects another interpreter; a no-op without the Python extension. */
export async function onInterpreterChange(listener: () => void): Promise<vscode.Disposable> {
  const api = await pythonApi().catch(() => undefined);
  const environments = api?.environments;
  if (environments === undefined) {
    return new vscode.Disposable(() => undefined);
  }
  return environments.onDidChangeActiveEnvironmentPath(() => listener());
}

/** Whether `python` can import the cairn package (checked without starting the server). */
export function interpreterHasCairn(python: string): Promise<boolean> {
  return new Promise((resolve) => {
    execFile(
      python,
      ['-P', '-c', 'import importlib.util, sys; sys.exit(0 if importlib.util.find_spec("cairn.lsp") else 1)'],
      { timeout: 15000, cwd: os.tmpdir() },
      (error) => resolve(error === null),
    );
  });
}
