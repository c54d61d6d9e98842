// Cairn for VS Code: starts the Cairn language server and adds the status
// bar, the report and the commands around it. The checking itself is the
// server's; see README.md for what a writer sees.
import * as vscode from 'vscode';
import { registerCitationPaste } from './citationPaste';
import { CITED_SOURCE_SCHEME } from './core/citedSource';
import { EVIDENCE_COMMAND, parseEvidence, pickRows, pickTitle } from './core/evidence';
import { reportPageOf } from './core/reportPage';
import { ReportView } from './reportView';
import { CairnServer } from './server';
import { CitationStatus } from './statusBar';

let server: CairnServer | undefined;

/** The source formats `cairn.citeSelection` accepts: their parsed text is the file's text. */
const CITABLE_EXTENSIONS = ['.md', '.txt'];

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const output = vscode.window.createOutputChannel('Cairn', { log: true });
  const status = new CitationStatus();
  const cairn = new CairnServer(output);
  server = cairn;
  const report = new ReportView(async () => reportPageOf(await cairn.executeCommand<unknown>('cairn.reportHtml')));

  context.subscriptions.push(
    output,
    status,
    cairn,
    report,
    cairn.onDidChangeState(({ state, detail }) => {
      void vscode.commands.executeCommand('setContext', 'cairn.serverRunning', state === 'running');
      status.showState(state, detail);
    }),
    cairn.onDidCheck((metrics) => {
      status.showMetrics(metrics);
      report.refresh().catch((error: unknown) => output.warn(`Refreshing the report: ${String(error)}`));
    }),
    // read-only documents of the exact cited text (a superseded version, a PDF page)
    vscode.workspace.registerTextDocumentContentProvider(CITED_SOURCE_SCHEME, {
      provideTextDocumentContent: (uri) => cairn.sourceText(uri.toString()),
    }),
    // a cite block pasted into a draft gets the claim it is pasted under (`claim` field)
    registerCitationPaste(cairn, output),
    vscode.commands.registerCommand('cairn.restartServer', () => cairn.restart()),
    vscode.commands.registerCommand('cairn.showOutput', () => output.show(true)),
    vscode.commands.registerCommand('cairn.showReport', () => showErrors(output, () => report.show())),
    vscode.commands.registerCommand('cairn.showProblems', showProblems),
    vscode.commands.registerCommand('cairn.copySelectionAsCitation', () =>
      showErrors(output, () => copySelectionAsCitation(cairn)),
    ),
    vscode.commands.registerCommand('cairn.askSources', (question?: unknown) =>
      showErrors(output, () => askSources(cairn, typeof question === 'string' ? question : undefined)),
    ),
    vscode.commands.registerCommand('cairn.findEvidence', () => showErrors(output, () => findEvidence(cairn))),
  );

  await cairn.start();
}

export async function deactivate(): Promise<void> {
  await server?.stop();
  server = undefined;
}

/** Runs a command and turns its failure into an error message instead of a silent rejection. */
async function showErrors(output: vscode.LogOutputChannel, action: () => Promise<void>): Promise<void> {
  try {
    await action();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    output.error(message);
    void vscode.window.showErrorMessage(`Cairn: ${message}`);
  }
}

/**
 * Opens the Problems view and puts the cursor in its filter box. VS Code has
 * no command that sets the filter's text, so the box is focused for the
 * writer to type `cairn` when other tools report problems too.
 */
async function showProblems(): Promise<void> {
  await vscode.commands.executeCommand('workbench.actions.view.problems');
  const others = vscode.languages
    .getDiagnostics()
    .some(([, diagnostics]) => diagnostics.some((d) => d.source !== undefined && d.source !== 'cairn'));
  if (others) {
    await vscode.commands.executeCommand('problems.action.focusFilter');
  }
}

/**
 * Selection in a .md or .txt source → the server's `cite` block, on the
 * clipboard. The claim is not known yet: pasting the block under it in a draft
 * adds the `claim` field (citationPaste.ts).
 */
async function copySelectionAsCitation(cairn: CairnServer): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (editor === undefined || editor.selection.isEmpty) {
    void vscode.window.showWarningMessage('Cairn: select the passage of a source to cite first.');
    return;
  }
  const document = editor.document;
  const extension = document.uri.path.slice(document.uri.path.lastIndexOf('.')).toLowerCase();
  if (document.uri.scheme !== 'file' || !CITABLE_EXTENSIONS.includes(extension)) {
    void vscode.window.showWarningMessage('Cairn: citations can be copied from .md and .txt sources only.');
    return;
  }
  if (document.isDirty) {
    // The server cites what is on disk (and indexed), so unsaved text could not be found there.
    const save = 'Save and Copy';
    const choice = await vscode.window.showWarningMessage(
      'Cairn cites the saved source. Save this file first?',
      save,
    );
    if (choice !== save || !(await document.save())) {
      return;
    }
  }
  const result = await cairn.executeCommand<{ text?: unknown; citations?: unknown[] } | null>('cairn.citeSelection', [
    document.uri.toString(),
    cairn.protocolRange(editor.selection),
  ]);
  if (typeof result?.text !== 'string' || result.text.length === 0) {
    throw new Error('the server returned no citation for this selection.');
  }
  await vscode.env.clipboard.writeText(result.text);
  const count = Array.isArray(result.citations) ? result.citations.length : 1;
  void vscode.window.showInformationMessage(
    `Cairn: copied a cite block with ${count} citation${count === 1 ? '' : 's'}. Paste it under the claim in your draft.`,
  );
}

/**
 * Asks the server (`cairn.ask`) to answer a question from the sources and inserts
 * the answer, a Markdown draft with cite blocks, at the cursor: its claims are
 * then checked like any other. `question` is for tests and keybindings; without
 * it an input box asks for one.
 */
async function askSources(cairn: CairnServer, question?: string): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (editor === undefined || editor.document.languageId !== 'markdown') {
    void vscode.window.showWarningMessage('Cairn: open the Markdown draft the answer should go into first.');
    return;
  }
  const asked =
    question ??
    (await vscode.window.showInputBox({
      title: 'Cairn: Ask the sources',
      prompt: 'A question; the answer is written from the sources, with a citation for each claim.',
      ignoreFocusOut: true,
    }));
  if (asked === undefined || asked.trim() === '') {
    return;
  }
  const result = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: 'Cairn: asking the sources…' },
    () =>
      cairn.executeCommand<{ markdown?: unknown; label?: unknown } | null>('cairn.ask', [
        asked,
        editor.document.uri.toString(),
      ]),
  );
  if (typeof result?.markdown !== 'string' || result.markdown.length === 0) {
    throw new Error('the server returned no answer.');
  }
  const text = result.markdown;
  await editor.edit((edit) => edit.insert(editor.selection.active, text));
  if (typeof result.label === 'string') {
    void vscode.window.showInformationMessage(`Cairn: inserted an ${result.label}.`);
  }
}

/**
 * "Find evidence": asks the server (`cairn.evidence`) for the passages of the
 * sources that best support the paragraph at the cursor, shows them with their
 * text in a quick pick, and inserts the chosen one's cite block after the
 * paragraph (the same block the light bulb's "Cite …" actions insert).
 */
async function findEvidence(cairn: CairnServer): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (editor === undefined || editor.document.languageId !== 'markdown') {
    void vscode.window.showWarningMessage('Cairn: put the cursor in a paragraph of a Markdown draft first.');
    return;
  }
  const document = editor.document;
  const evidence = parseEvidence(
    await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: 'Cairn: finding evidence' },
      () =>
        cairn.executeCommand<unknown>(EVIDENCE_COMMAND, [
          document.uri.toString(),
          cairn.protocolPosition(editor.selection.active),
        ]),
    ),
  );
  if (evidence.claim === null) {
    void vscode.window.showInformationMessage(`Cairn: ${evidence.message ?? 'no claim at the cursor.'}`);
    return;
  }
  if (evidence.passages.length === 0) {
    void vscode.window.showInformationMessage('Cairn: nothing in the sources is close to this claim.');
    return;
  }
  const supported = evidence.passages.some((p) => p.supports);
  const chosen = await vscode.window.showQuickPick(pickRows(evidence), {
    title: pickTitle(evidence.claim),
    placeHolder: supported
      ? 'Choose a passage to cite: its cite block goes after the paragraph'
      : 'Nothing in the sources supports this claim; these passages come closest',
    matchOnDescription: true,
    matchOnDetail: true,
  });
  if (chosen === undefined) {
    return;
  }
  if (chosen.passage.edit === null) {
    throw new Error('this passage cannot be inserted after the paragraph; copy its block from "cairn cite --for" instead.');
  }
  if (!(await cairn.applyProtocolEdit(chosen.passage.edit))) {
    throw new Error('the draft changed while the passages were shown; run "Find evidence" again.');
  }
}
