// "Cairn: Show citation report": the server's HTML report (the page of
// `cairn check --format html`: metrics, charts, every claim with its quotes,
// filters, the faithfulness lab) in a webview, refreshed after each check while
// it is open. The page carries its own content security policy (no request of
// any kind; only its own inline script and style, by hash); a click on a claim
// reveals it in its draft.
import * as vscode from 'vscode';

export class ReportView implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;

  constructor(private readonly fetchPage: () => Promise<string>) {}

  async show(): Promise<void> {
    const page = await this.fetchPage();
    if (this.panel === undefined) {
      this.panel = vscode.window.createWebviewPanel('cairn.report', 'Cairn report', vscode.ViewColumn.Beside, {
        enableScripts: true,
        localResourceRoots: [],
      });
      this.panel.onDidDispose(() => (this.panel = undefined));
      this.panel.webview.onDidReceiveMessage((message: { type?: string; path?: string; line?: number }) => {
        if (message.type === 'open' && typeof message.path === 'string' && typeof message.line === 'number') {
          void openDraftLine(message.path, message.line);
        }
      });
    } else {
      this.panel.reveal(undefined, true);
    }
    this.render(page);
  }

  /** Re-renders an open report after a check; does nothing when it is closed. */
  async refresh(): Promise<void> {
    if (this.panel === undefined) {
      return;
    }
    this.render(await this.fetchPage());
  }

  dispose(): void {
    this.panel?.dispose();
  }

  private render(page: string): void {
    if (this.panel !== undefined) {
      this.panel.webview.html = page;
    }
  }
}

async function openDraftLine(relativePath: string, line: number): Promise<void> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (folder === undefined) {
    return;
  }
  const uri = vscode.Uri.joinPath(folder.uri, ...relativePath.split('/'));
  const position = new vscode.Position(Math.max(0, line - 1), 0);
  await vscode.window.showTextDocument(uri, {
    viewColumn: vscode.ViewColumn.One,
    selection: new vscode.Range(position, position),
  });
}
