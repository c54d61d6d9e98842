// Pasting a cite block under a claim binds it to that claim: the block that
// "Copy selection as citation" put on the clipboard has no `claim` field (the
// claim is not known at copy time), so the paste offers, and applies by
// default, the same text with the field added. The server says which claim
// the block will follow and writes the field (`cairn.bindPasted`), by the rule
// every other block Cairn writes follows.
import * as vscode from 'vscode';
import { BIND_PASTED_COMMAND, boundTextOf, holdsCiteFence } from './core/pastedCitation';
import type { CairnServer } from './server';

/** The kind of the paste edit (`editor.pasteAs.preferences` can name it). */
export const BOUND_CITATION_KIND = vscode.DocumentDropOrPasteEditKind.Empty.append('cairn', 'boundCitation');

class BoundCitationPaste implements vscode.DocumentPasteEditProvider {
  constructor(
    private readonly cairn: CairnServer,
    private readonly output: vscode.LogOutputChannel,
  ) {}

  async provideDocumentPasteEdits(
    document: vscode.TextDocument,
    ranges: readonly vscode.Range[],
    dataTransfer: vscode.DataTransfer,
    _context: vscode.DocumentPasteEditContext,
    token: vscode.CancellationToken,
  ): Promise<vscode.DocumentPasteEdit[] | undefined> {
    // one cursor only: with several, VS Code may split the text between them
    if (ranges.length !== 1 || !this.cairn.isRunning) {
      return undefined;
    }
    const text = await dataTransfer.get('text/plain')?.asString();
    if (text === undefined || !holdsCiteFence(text) || token.isCancellationRequested) {
      return undefined;
    }
    let answer: unknown;
    try {
      answer = await this.cairn.executeCommand<unknown>(BIND_PASTED_COMMAND, [
        document.uri.toString(),
        this.cairn.protocolRange(ranges[0]),
        text,
      ]);
    } catch (error) {
      // the plain paste still happens; binding is a help, never a reason to lose the paste
      this.output.warn(`Binding the pasted cite block: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    }
    const bound = boundTextOf(answer);
    if (bound === undefined || token.isCancellationRequested) {
      return undefined;
    }
    return [new vscode.DocumentPasteEdit(bound, 'Cite block bound to the claim above it', BOUND_CITATION_KIND)];
  }
}

/** Registers the paste of cite blocks into Markdown files on disk (the server checks which are drafts). */
export function registerCitationPaste(cairn: CairnServer, output: vscode.LogOutputChannel): vscode.Disposable {
  return vscode.languages.registerDocumentPasteEditProvider(
    { language: 'markdown', scheme: 'file' },
    new BoundCitationPaste(cairn, output),
    { providedPasteEditKinds: [BOUND_CITATION_KIND], pasteMimeTypes: ['text/plain'] },
  );
}
