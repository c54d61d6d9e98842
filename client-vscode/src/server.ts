// The Cairn language server's lifetime: find it, start it, restart it when
// its settings or the selected interpreter change, and pass on what it reports.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  ExecuteCommandRequest,
  LanguageClient,
  RevealOutputChannelOn,
  State,
  type ConfigurationParams,
  type LanguageClientOptions,
  type ServerOptions,
} from 'vscode-languageclient/node';
import { SOURCE_TEXT_REQUEST, sourceTextOf, withCitedSourceCapability } from './core/citedSource';
import { parseMetrics, type Metrics } from './core/report';
import { resolveServerCommand, ServerNotFoundError, type ServerCommand } from './core/serverCommand';
import { changeNeedsRestart, serverSection, type SettingsSource } from './core/settings';
import { interpreterHasCairn, onInterpreterChange, selectedInterpreter } from './python';

/** The notification the server sends after each check cycle. */
const CHECKED_NOTIFICATION = 'cairn/checked';

export type ServerState = 'starting' | 'running' | 'stopped' | 'failed';

function isExecutable(file: string): boolean {
  try {
    const stat = fs.statSync(file);
    if (!stat.isFile()) {
      return false;
    }
    fs.accessSync(file, process.platform === 'win32' ? fs.constants.F_OK : fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The registered `cairn.*` settings of a folder (or the window, without one), read one key at a time. */
function settingsSource(scopeUri: string | undefined): SettingsSource {
  const config = vscode.workspace.getConfiguration('cairn', scopeUri === undefined ? undefined : vscode.Uri.parse(scopeUri));
  const name = (key: string): string => key.slice('cairn.'.length);
  return {
    get: (key) => config.get(name(key)),
    inspect: (key) => config.inspect(name(key)),
  };
}

export class CairnServer implements vscode.Disposable {
  private client: LanguageClient | undefined;
  private command: ServerCommand | undefined;
  /** Start, stop and restart run one at a time, in the order asked. */
  private queue: Promise<void> = Promise.resolve();
  private readonly disposables: vscode.Disposable[] = [];
  private readonly metricsEmitter = new vscode.EventEmitter<Metrics>();
  private readonly stateEmitter = new vscode.EventEmitter<{ state: ServerState; detail?: string }>();

  /** Fired with the workspace's metrics after each check cycle. */
  readonly onDidCheck = this.metricsEmitter.event;
  readonly onDidChangeState = this.stateEmitter.event;

  constructor(private readonly output: vscode.LogOutputChannel) {
    this.disposables.push(
      this.metricsEmitter,
      this.stateEmitter,
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (changeNeedsRestart((section) => event.affectsConfiguration(section))) {
          this.output.info('Cairn settings changed; restarting the server.');
          void this.restart();
        }
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(() => {
        this.output.info('Workspace trusted; restarting the server with the workspace settings.');
        void this.restart();
      }),
    );
    void onInterpreterChange(() => {
      if (this.command?.origin === 'setting') {
        return;
      }
      this.output.info('The selected Python interpreter changed; restarting the server.');
      void this.restart();
    }).then((disposable) => this.disposables.push(disposable));
  }

  get isRunning(): boolean {
    return this.client?.state === State.Running;
  }

  start(): Promise<void> {
    return this.enqueue(() => this.doStart());
  }

  stop(): Promise<void> {
    return this.enqueue(() => this.doStop());
  }

  restart(): Promise<void> {
    return this.enqueue(async () => {
      await this.doStop();
      await this.doStart();
    });
  }

  /** Runs a server command (workspace/executeCommand) and returns its result. */
  async executeCommand<T>(command: string, args: unknown[] = []): Promise<T> {
    const client = this.client;
    if (client === undefined || client.state !== State.Running) {
      throw new Error('The Cairn server is not running. Run "Cairn: Restart server" or see the Cairn output.');
    }
    return (await client.sendRequest(ExecuteCommandRequest.type, { command, arguments: args })) as T;
  }

  /** The text of a `cairn-source:` document (the exact cited text), from the server. */
  async sourceText(uri: string): Promise<string> {
    const client = this.client;
    if (client === undefined || client.state !== State.Running) {
      throw new Error('The Cairn server is not running. Run "Cairn: Restart server" or see the Cairn output.');
    }
    return sourceTextOf(await client.sendRequest(SOURCE_TEXT_REQUEST, { uri }));
  }

  /** Converts an editor range to the protocol's, in the encoding the server negotiated. */
  protocolRange(range: vscode.Range): unknown {
    return this.client?.code2ProtocolConverter.asRange(range) ?? range;
  }

  /** Converts an editor position to the protocol's. */
  protocolPosition(position: vscode.Position): unknown {
    return this.client?.code2ProtocolConverter.asPosition(position) ?? position;
  }

  /** Applies a WorkspaceEdit the server made (protocol positions); false when the editor refused it. */
  async applyProtocolEdit(edit: unknown): Promise<boolean> {
    const client = this.client;
    if (client === undefined || client.state !== State.Running) {
      throw new Error('The Cairn server is not running. Run "Cairn: Restart server" or see the Cairn output.');
    }
    const converted = await client.protocol2CodeConverter.asWorkspaceEdit(edit as Parameters<typeof client.protocol2CodeConverter.asWorkspaceEdit>[0]);
    return converted !== undefined && vscode.workspace.applyEdit(converted);
  }

  dispose(): void {
    void this.stop();
    this.disposables.forEach((d) => void d.dispose());
  }

  private enqueue(step: () => Promise<void>): Promise<void> {
    const next = this.queue.then(step, step);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async findServer(): Promise<ServerCommand> {
    const folder = vscode.workspace.workspaceFolders?.[0];
    const trusted = vscode.workspace.isTrusted;
    const config = vscode.workspace.getConfiguration('cairn', folder);
    return resolveServerCommand({
      // In an untrusted workspace VS Code already ignores the workspace's value
      // of this setting (restrictedConfigurations), so this is the user's own.
      settingPath: config.get<string>('server.path'),
      workspaceFolder: folder?.uri.fsPath,
      home: os.homedir(),
      // An untrusted folder may carry its own virtual environment; running its
      // Python would run the folder's code, so the interpreter is skipped.
      selectedInterpreter: trusted ? () => selectedInterpreter(folder) : () => Promise.resolve(undefined),
      interpreterHasCairn,
      isExecutable,
      envPath: process.env.PATH,
      pathDelimiter: path.delimiter,
      pathExt: process.platform === 'win32' ? process.env.PATHEXT : undefined,
    });
  }

  private async doStart(): Promise<void> {
    this.stateEmitter.fire({ state: 'starting' });
    let command: ServerCommand;
    try {
      command = await this.findServer();
    } catch (error) {
      this.command = undefined;
      this.reportNotFound(error);
      return;
    }
    this.command = command;
    this.output.info(`Starting the Cairn server (${command.description}): ${[command.command, ...command.args].join(' ')}`);

    const serverOptions: ServerOptions = {
      command: command.command,
      args: command.args,
      // started outside the workspace: nothing a cloned folder holds is on the server's path
      options: { cwd: os.tmpdir(), env: { ...process.env, PYTHONUNBUFFERED: '1' } },
    };
    const clientOptions: LanguageClientOptions = {
      documentSelector: [{ scheme: 'file', language: 'markdown' }],
      outputChannel: this.output,
      traceOutputChannel: this.output,
      diagnosticCollectionName: 'cairn',
      // A server that cannot start should not open the log over the writer's draft.
      revealOutputChannelOn: RevealOutputChannelOn.Never,
      connectionOptions: { maxRestartCount: 4 },
      middleware: {
        workspace: {
          configuration: async (params: ConfigurationParams, token, next) => {
            const result = await next(params, token);
            if (!Array.isArray(result)) {
              return result;
            }
            return result.map((value: unknown, index) => {
              const item = params.items[index];
              return item?.section === 'cairn' ? serverSection(settingsSource(item.scopeUri)) : value;
            });
          },
          // The server asks with workspace/configuration (above) when told that
          // settings changed; the merged section is never sent on its own.
          didChangeConfiguration: (_sections, next) => next(undefined),
        },
        // `cairn.reindex` is a server command, so the language client registers
        // the VS Code command of that name; this shows its result.
        executeCommand: async (name, args, next): Promise<unknown> => {
          if (name !== 'cairn.reindex') {
            return (await next(name, args)) as unknown;
          }
          return vscode.window.withProgress(
            { location: vscode.ProgressLocation.Window, title: 'Cairn: indexing sources' },
            async () => {
              const result: unknown = await next(name, args);
              const count = (result as { sources?: unknown } | null)?.sources;
              void vscode.window.showInformationMessage(
                typeof count === 'number' ? `Cairn indexed ${count} source${count === 1 ? '' : 's'}.` : 'Cairn re-indexed the sources.',
              );
              return result;
            },
          );
        },
      },
    };

    const client = new LanguageClient('cairn', 'Cairn', serverOptions, clientOptions);
    this.client = client;
    // go to definition may then answer with the exact cited text (a cairn-source: document)
    client.registerFeature({
      fillClientCapabilities: (capabilities) => withCitedSourceCapability(capabilities),
      initialize: () => undefined,
      getState: () => ({ kind: 'static' }),
      clear: () => undefined,
    });
    client.onDidChangeState((event) => {
      if (client !== this.client) {
        return;
      }
      if (event.newState === State.Running) {
        this.stateEmitter.fire({ state: 'running' });
      } else if (event.newState === State.Stopped) {
        this.stateEmitter.fire({ state: 'stopped' });
      }
    });
    client.onNotification(CHECKED_NOTIFICATION, (params: { metrics?: unknown } | undefined) => {
      const metrics = parseMetrics(params?.metrics);
      if (metrics !== undefined) {
        this.metricsEmitter.fire(metrics);
      }
    });
    try {
      await client.start();
    } catch (error) {
      this.output.error(`The Cairn server did not start: ${String(error)}`);
      this.stateEmitter.fire({ state: 'failed', detail: String(error) });
      void this.offerHelp(
        `The Cairn server (${command.command}) did not start. See the Cairn output for its messages.`,
      );
      return;
    }
    await this.refreshMetrics();
  }

  /** Asks the server for the report once, so the status bar is filled before the first check cycle ends. */
  async refreshMetrics(): Promise<void> {
    try {
      const report = await this.executeCommand<{ metrics?: unknown } | null>('cairn.report');
      const metrics = parseMetrics(report?.metrics);
      if (metrics !== undefined) {
        this.metricsEmitter.fire(metrics);
      }
    } catch (error) {
      this.output.warn(`cairn.report failed: ${String(error)}`);
    }
  }

  private async doStop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (client === undefined) {
      return;
    }
    try {
      if (client.state !== State.Stopped) {
        await client.stop(5000);
      }
    } catch (error) {
      this.output.warn(`Stopping the Cairn server: ${String(error)}`);
    }
    try {
      await client.dispose();
    } catch {
      // already stopped
    }
    this.stateEmitter.fire({ state: 'stopped' });
  }

  private reportNotFound(error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    this.output.error(message);
    if (error instanceof ServerNotFoundError) {
      for (const line of error.tried) {
        this.output.error(`  looked at ${line}`);
      }
    }
    this.stateEmitter.fire({ state: 'failed', detail: message });
    void this.offerHelp(message);
  }

  private async offerHelp(message: string): Promise<void> {
    const openSettings = 'Open Settings';
    const showLog = 'Show Log';
    const choice = await vscode.window.showErrorMessage(message, openSettings, showLog);
    if (choice === openSettings) {
      await vscode.commands.executeCommand('workbench.action.openSettings', 'cairn.server.path');
    } else if (choice === showLog) {
      this.output.show(true);
    }
  }
}
