// The status bar item: the workspace's citation validity and faithfulness.
import * as vscode from 'vscode';
import { statusView, type Metrics } from './core/report';
import type { ServerState } from './server';

export class CitationStatus implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;

  constructor() {
    this.item = vscode.window.createStatusBarItem('cairn.status', vscode.StatusBarAlignment.Left, 50);
    this.item.name = 'Cairn citations';
    this.item.command = 'cairn.showReport';
    this.showState('starting');
    this.item.show();
  }

  showMetrics(metrics: Metrics): void {
    const view = statusView(metrics);
    this.item.text = view.text;
    const tooltip = new vscode.MarkdownString(view.tooltip, true);
    tooltip.isTrusted = { enabledCommands: ['cairn.showReport', 'cairn.showProblems'] };
    tooltip.appendMarkdown(
      '\n\n[Show the citation report](command:cairn.showReport) · [Show the problems](command:cairn.showProblems)',
    );
    this.item.tooltip = tooltip;
    // a click opens the report (the page of `cairn check --format html`); the tooltip also offers the Problems view
    this.item.command = 'cairn.showReport';
    this.item.backgroundColor =
      view.level === 'error' ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
  }

  showState(state: ServerState, detail?: string): void {
    this.item.backgroundColor = undefined;
    switch (state) {
      case 'starting':
        this.item.text = '$(sync~spin) Cairn';
        this.item.tooltip = 'Cairn is starting its language server.';
        this.item.command = 'cairn.showOutput';
        break;
      case 'running':
        // The figures come with the first check; until then say so.
        if (this.item.text.includes('~spin')) {
          this.item.text = '$(sync~spin) Cairn: checking';
          this.item.tooltip = 'Cairn is checking the drafts.';
        }
        break;
      case 'stopped':
        this.item.text = '$(circle-slash) Cairn';
        this.item.tooltip = 'The Cairn server is stopped. Click to see its log.';
        this.item.command = 'cairn.showOutput';
        break;
      case 'failed':
        this.item.text = '$(error) Cairn';
        this.item.tooltip = `The Cairn server is not running${detail ? `: ${detail}` : '.'} Click to see its log.`;
        this.item.command = 'cairn.showOutput';
        this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.errorBackground');
        break;
    }
  }

  dispose(): void {
    this.item.dispose();
  }
}
