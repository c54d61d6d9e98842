// "Cairn: Show citation report": the report of SPEC section 6 as a table in a
// webview, refreshed after each check while it is open.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { reportHtmlBody, type Report } from './core/report';

const STYLE = `
body { font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); color: var(--vscode-foreground); padding: 0 1.5em 2em; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; width: 100%; }
th, td { text-align: left; vertical-align: top; padding: 4px 8px; border-bottom: 1px solid var(--vscode-editorWidget-border, #8884); }
table.metrics { width: auto; }
.scroll { overflow-x: auto; }
table.claims { min-width: 720px; }
td.text { min-width: 16em; }
td.problems { min-width: 14em; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.claim { cursor: pointer; }
tr.claim:hover, tr.claim:focus { background: var(--vscode-list-hoverBackground); outline: none; }
.badge { border-radius: 3px; padding: 0 6px; font-size: 0.85em; white-space: nowrap; }
.badge.ok { background: var(--vscode-testing-iconPassed, #388a34); color: var(--vscode-editor-background); }
.badge.bad { background: var(--vscode-errorForeground, #e51400); color: var(--vscode-editor-background); }
.unresolved { color: var(--vscode-errorForeground); text-decoration: line-through; }
.sev-error code { color: var(--vscode-errorForeground); }
.sev-warning code { color: var(--vscode-editorWarning-foreground); }
a { color: var(--vscode-textLink-foreground); }
`;

/** Opens a claim's line in its draft when a row is clicked or Enter is pressed on it. */
const SCRIPT = `
const vscode = acquireVsCodeApi();
function open(row) { vscode.postMessage({ type: 'open', path: row.dataset.path, line: Number(row.dataset.line) }); }
document.addEventListener('click', (e) => { const row = e.target.closest('tr.claim'); if (row) { e.preventDefault(); open(row); } });
document.addEventListener('keydown', (e) => { const row = e.target.closest && e.target.closest('tr.claim'); if (row && e.key === 'Enter') { open(row); } });
`;

export class ReportView implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;

  constructor(private readonly fetchReport: () => Promise<Report>) {}

  async show(): Promise<void> {
    const report = await this.fetchReport();
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
    this.render(report);
  }

  /** Re-renders an open report after a check; does nothing when it is closed. */
  async refresh(): Promise<void> {
    if (this.panel === undefined) {
      return;
    }
    this.render(await this.fetchReport());
  }

  dispose(): void {
    this.panel?.dispose();
  }

  private render(report: Report): void {
    if (this.panel === undefined) {
      return;
    }
    const nonce = randomBytes(16).toString('base64');
    const csp = `default-src 'none'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}';`;
    this.panel.webview.html = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<style nonce="${nonce}">${STYLE}</style><title>Cairn report</title></head>
<body>${reportHtmlBody(report)}<script nonce="${nonce}">${SCRIPT}</script></body></html>`;
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
