// The HTML report page the server renders (`cairn.reportHtml`, the page of
// `cairn check --format html`), checked before a webview shows it. Pure: no
// VS Code here.

/** The server's page; anything else, or a page without its no-request policy, is refused. */
export function reportPageOf(answer: unknown): string {
  const html = typeof answer === 'object' && answer !== null ? (answer as { html?: unknown }).html : undefined;
  if (typeof html !== 'string' || !html.startsWith('<!DOCTYPE html>')) {
    throw new Error('the Cairn server sent no report page.');
  }
  const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html);
  if (policy === null || !policy[1].replace(/&#39;/g, "'").includes("default-src 'none'")) {
    throw new Error('the Cairn report page has no content security policy; it is not shown.');
  }
  return html;
}
