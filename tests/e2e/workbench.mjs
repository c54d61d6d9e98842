// What a person does in the VS Code workbench, through the page: open a file,
// go to a line, read the squiggles on it, hover, use the light bulb, read the
// Problems view and the status bar. Every wait polls with a deadline.

/** Polls `probe` until it returns a truthy value; fails with `what` and the last value seen. */
export async function waitFor(what, probe, { timeout = 30_000, interval = 200 } = {}) {
  const deadline = Date.now() + timeout;
  let last;
  for (;;) {
    try {
      last = await probe();
      if (last) {
        return last;
      }
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) {
      const seen = last instanceof Error ? last.message : JSON.stringify(last);
      throw new Error(`timed out after ${timeout / 1000}s waiting for ${what} (last seen: ${seen})`);
    }
    await new Promise((resolve) => setTimeout(resolve, interval));
  }
}

const ACTIVE_EDITOR = '.editor-group-container.active .editor-instance .monaco-editor';

export class Workbench {
  constructor(page) {
    this.page = page;
  }

  async ready() {
    await this.page.waitForSelector('.monaco-workbench', { timeout: 120_000 });
    // the explorer shows the folder once the workbench has loaded it
    await this.page.waitForSelector('.explorer-folders-view .monaco-list-row', { timeout: 120_000 });
  }

  /** Opens a workspace file through Quick Open (Ctrl+P), as a person would. */
  async openFile(relativePath) {
    const name = relativePath.split('/').pop();
    await this.page.keyboard.press('Escape');
    await this.page.keyboard.press('Control+P');
    const input = this.page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible', timeout: 10_000 });
    await input.fill(relativePath);
    const row = this.page
      .locator('.quick-input-list .monaco-list-row', { hasText: name })
      .filter({ hasText: relativePath.split('/').slice(0, -1).join('/') || name })
      .first();
    await row.waitFor({ state: 'visible', timeout: 15_000 });
    await row.click();
    await this.parkMouse();
    await waitFor(`the editor tab of ${relativePath}`, () =>
      this.page.evaluate(
        (n) => document.querySelector('.editor-group-container.active .tab.active')?.getAttribute('aria-label')?.startsWith(n),
        name,
      ),
    );
    await this.page.locator(`${ACTIVE_EDITOR} .view-lines`).waitFor({ state: 'visible' });
  }

  /**
   * Runs a command from the Command Palette by its title, e.g. "Cairn: Restart server".
   * `keepSelection`: no Escape first, which would clear the editor's selection.
   */
  async runCommand(title, { keepSelection = false } = {}) {
    // the quick input can close under us (a notification or a focus change
    // right after it opened): open it again, a few times, as a person would
    for (let attempt = 1; ; attempt++) {
      try {
        await this.openCommandAndRun(title, { keepSelection: keepSelection && attempt === 1 });
        return;
      } catch (err) {
        if (attempt >= 3) throw err;
        await this.page.keyboard.press('Escape');
      }
    }
  }

  async openCommandAndRun(title, { keepSelection }) {
    if (!keepSelection) {
      await this.page.keyboard.press('Escape');
    }
    await this.page.keyboard.press('F1');
    const input = this.page.locator('.quick-input-widget input');
    try {
      await input.waitFor({ state: 'visible', timeout: 3_000 });
    } catch {
      // F1 does not reach the workbench while a webview (the report) has the
      // focus; the search box in the title bar opens the same quick input
      await this.page.locator('.command-center-center').click();
      await input.waitFor({ state: 'visible', timeout: 10_000 });
    }
    await input.fill(`>${title}`, { timeout: 10_000 });
    const row = this.page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
    await row.waitFor({ state: 'visible', timeout: 15_000 });
    await row.click();
    await this.parkMouse();
  }

  /** Moves the mouse to an empty part of the activity bar, where it opens no hover. */
  async parkMouse() {
    await this.page.mouse.move(24, 500);
  }

  /** Moves the cursor to a 1-based line with Go to Line (Ctrl+G). */
  async gotoLine(line, column = 1) {
    await this.focusEditor();
    await this.page.keyboard.press('Control+G');
    const input = this.page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible', timeout: 10_000 });
    await input.fill(`:${line}:${column}`);
    await this.page.keyboard.press('Enter');
    // Go to Line moves the cursor while it is typed, so also wait for the box to
    // close and the editor to have the keyboard again
    await input.waitFor({ state: 'hidden', timeout: 10_000 });
    await waitFor(
      `the cursor on line ${line} in the focused editor`,
      async () =>
        (await this.cursorLine()) === line &&
        (await this.page.evaluate((selector) => document.querySelector(selector)?.classList.contains('focused'), ACTIVE_EDITOR)),
      { timeout: 10_000 },
    );
  }

  /** Focuses the editor (Ctrl+1), keeping its cursor and scroll position. */
  async focusEditor() {
    await this.page.keyboard.press('Escape');
    await this.page.keyboard.press('Control+1');
    await waitFor('the editor to have the focus', () =>
      this.page.evaluate((selector) => document.querySelector(selector)?.classList.contains('focused'), ACTIVE_EDITOR),
    );
  }

  async cursorLine() {
    const text = await this.page.locator('[id="status.editor.selection"]').textContent();
    const match = /Ln (\d+)/.exec(text ?? '');
    return match ? Number(match[1]) : undefined;
  }

  /**
   * The decorations the active editor draws on a rendered line, e.g.
   * ["squiggly-error"], found through the line number in the gutter; null
   * when the line is not rendered.
   */
  async lineDecorations(line) {
    return this.page.evaluate(
      ({ selector, line }) => {
        const editor = document.querySelector(selector);
        if (!editor) {
          return null;
        }
        const numbers = [...editor.querySelectorAll('.margin-view-overlays > div')];
        const row = numbers.find((div) => div.querySelector('.line-numbers')?.textContent?.trim() === String(line));
        if (!row) {
          return null;
        }
        const top = row.style.top;
        const overlay = [...editor.querySelectorAll('.view-overlays > div')].find((div) => div.style.top === top);
        if (!overlay) {
          return [];
        }
        return [...overlay.children].flatMap((child) => [...child.classList]).filter((c) => c.startsWith('squiggly-'));
      },
      { selector: ACTIVE_EDITOR, line },
    );
  }

  /** Brings a line into view (Go to Line) and waits until its squiggles satisfy `accept`. */
  async waitForLineSquiggles(line, accept, what, timeout = 30_000) {
    await this.gotoLine(line);
    return waitFor(
      `${what} on line ${line}`,
      async () => {
        const found = await this.lineDecorations(line);
        return found !== null && accept(found) ? found : false;
      },
      { timeout },
    );
  }

  /** The text of a rendered line of the active editor. */
  async lineText(line) {
    return this.page.evaluate(
      ({ selector, line }) => {
        const editor = document.querySelector(selector);
        const numbers = [...editor.querySelectorAll('.margin-view-overlays > div')];
        const row = numbers.find((div) => div.querySelector('.line-numbers')?.textContent?.trim() === String(line));
        if (!row) {
          return null;
        }
        const view = [...editor.querySelectorAll('.view-lines > .view-line')].find((div) => div.style.top === row.style.top);
        return view ? view.textContent.replace(/\u00a0/g, ' ') : null;
      },
      { selector: ACTIVE_EDITOR, line },
    );
  }

  /** Hovers the mouse over `text` on a rendered line and returns the hover's text once it contains `expect`. */
  async hoverText(line, text, expect) {
    await this.gotoLine(line);
    const target = this.page.locator(`${ACTIVE_EDITOR} .view-line`, { hasText: text }).first();
    const box = await target.boundingBox();
    if (!box) {
      throw new Error(`line ${line} with "${text}" is not on the screen`);
    }
    let attempt = 0;
    return waitFor(`a hover on line ${line} containing ${JSON.stringify(expect)}`, async () => {
      const hovers = await this.page.locator('.monaco-hover:not(.hidden)').allTextContents();
      const hit = hovers.find((h) => expect.every((e) => h.includes(e)));
      if (hit) {
        return hit;
      }
      // as a person would: move off the text and onto it again every couple of
      // seconds (a hover that came back empty is not asked for again otherwise)
      if (attempt++ % 10 === 0) {
        await this.parkMouse();
        await this.page.mouse.move(box.x + 30, box.y + box.height / 2);
        await this.page.mouse.move(box.x + 40, box.y + box.height / 2);
      }
      return false;
    });
  }

  /** Opens the light bulb menu (Ctrl+.) on a line and returns its action titles. */
  async openQuickFixMenu(line, column) {
    await this.gotoLine(line, column);
    const rows = this.page.locator('.action-widget .monaco-list-row.action');
    await this.page.keyboard.press('Control+.');
    await rows.first().waitFor({ state: 'visible', timeout: 15_000 });
    return rows.allTextContents();
  }

  async chooseQuickFix(title) {
    await this.page.locator('.action-widget .monaco-list-row.action', { hasText: title }).first().click();
    await this.page.locator('.action-widget .monaco-list-row.action').first().waitFor({ state: 'hidden', timeout: 10_000 });
  }

  async save() {
    await this.page.keyboard.press('Control+S');
    await waitFor('the editor to be saved', () =>
      this.page.evaluate(() => !document.querySelector('.editor-group-container.active .tab.active.dirty')),
    );
  }

  /** Types into the active editor at the cursor. */
  async type(text) {
    await this.page.keyboard.type(text);
  }

  /** Shows the Problems view (Ctrl+Shift+M). */
  async showProblems() {
    await this.page.keyboard.press('Escape');
    await this.page.keyboard.press('Control+Shift+M');
    await this.page.locator('.markers-panel').waitFor({ state: 'visible', timeout: 10_000 });
  }

  /** Types into the Problems view's filter box. */
  async filterProblems(text) {
    const input = this.page.locator('input[aria-label="Filter Problems"]');
    // a Problems view that has just opened can still reset its filter box; type until it holds
    await waitFor(`the Problems filter to read "${text}"`, async () => {
      if ((await input.inputValue()) !== text) {
        await input.fill(text);
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
      return (await input.inputValue()) === text;
    });
  }

  /** The Problems view's rows: the file rows' and the problems' texts. */
  async problemRows() {
    return this.page.locator('.markers-panel .monaco-list-row').allTextContents();
  }

  /** Hides the panel (Ctrl+J toggles it) when it is shown. */
  async closePanel() {
    await this.page.keyboard.press('Escape');
    const panel = this.page.locator('.part.panel');
    if (await panel.isVisible()) {
      await this.page.keyboard.press('Control+J');
      await panel.waitFor({ state: 'hidden', timeout: 10_000 });
    }
  }

  statusItem(id) {
    return this.page.locator(`[id="${id}"]`);
  }

  /** Texts of the notification toasts on screen. */
  async notifications() {
    return this.page.locator('.notification-toast-container .notification-list-item-message').allTextContents();
  }

  async clearNotifications() {
    await this.runCommand('Notifications: Clear All Notifications');
  }
}
