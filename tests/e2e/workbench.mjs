// What a person does in the VS Code workbench, through the page: open a file,
// go to a line, read the squiggles on it, hover, use the light bulb, read the
// Problems view and the status bar. Every wait polls the page for the state
// it needs, with a deadline; nothing sleeps for a fixed time. An action that
// the workbench can drop when it is slow (a hover, a tooltip, a menu, the
// quick input) is repeated until its result shows or the deadline passes.

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

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
    await sleep(interval);
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
    // Quick Open can close under us or still be searching; open it again, as a person would
    for (let attempt = 1; ; attempt++) {
      try {
        await this.quickOpen(relativePath, name);
        break;
      } catch (err) {
        if (attempt >= 3) throw err;
        await this.page.keyboard.press('Escape');
      }
    }
    await this.parkMouse();
    await waitFor(`the editor tab of ${relativePath}`, () =>
      this.page.evaluate(
        (n) => document.querySelector('.editor-group-container.active .tab.active')?.getAttribute('aria-label')?.startsWith(n),
        name,
      ),
    );
    await this.page.locator(`${ACTIVE_EDITOR} .view-lines`).waitFor({ state: 'visible' });
  }

  async quickOpen(relativePath, name) {
    await this.page.keyboard.press('Escape');
    await this.page.keyboard.press('Control+P');
    const input = this.page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible', timeout: 10_000 });
    await input.fill(relativePath);
    const row = this.page
      .locator('.quick-input-list .monaco-list-row', { hasText: name })
      .filter({ hasText: relativePath.split('/').slice(0, -1).join('/') || name })
      .first();
    await row.waitFor({ state: 'visible', timeout: 20_000 });
    await row.click();
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
        await this.openCommandAndRun(title, { keepSelection });
        return;
      } catch (err) {
        if (attempt >= 3) throw err;
        // close what is left of the quick input; an Escape in the editor would clear its selection
        if (await this.page.locator('.quick-input-widget').isVisible()) {
          await this.page.keyboard.press('Escape');
        }
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

  /** Moves the cursor to a 1-based line with Go to Line (Ctrl+G); a box that did not open or close is tried again. */
  async gotoLine(line, column = 1) {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.goToLineOnce(line, column);
        return;
      } catch (err) {
        if (attempt >= 3) throw err;
      }
    }
  }

  async goToLineOnce(line, column) {
    await this.focusEditor();
    await this.page.keyboard.press('Control+G');
    const input = this.page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible', timeout: 15_000 });
    await input.fill(`:${line}:${column}`);
    await this.page.keyboard.press('Enter');
    // Go to Line moves the cursor while it is typed, so also wait for the box to
    // close and the editor to have the keyboard again
    await input.waitFor({ state: 'hidden', timeout: 15_000 });
    await waitFor(
      `the cursor on line ${line} in the focused editor`,
      async () =>
        (await this.cursorLine()) === line &&
        (await this.page.evaluate((selector) => document.querySelector(selector)?.classList.contains('focused'), ACTIVE_EDITOR)),
      { timeout: 15_000 },
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

  /**
   * The text of the code lens drawn just above a rendered line (VS Code puts a
   * lens in the gap before the line its range starts on); null when there is none.
   */
  async codeLensAbove(line) {
    return this.page.evaluate(
      ({ selector, line }) => {
        const editor = document.querySelector(selector);
        const rows = [...(editor?.querySelectorAll('.margin-view-overlays > div') ?? [])];
        const row = rows.find((div) => div.querySelector('.line-numbers')?.textContent?.trim() === String(line));
        if (!row) {
          return null;
        }
        const top = row.getBoundingClientRect().top;
        // the bottom of the rendered line before it: the lens is drawn between the two
        const above = rows
          .map((div) => div.getBoundingClientRect())
          .filter((rect) => rect.top < top)
          .reduce((low, rect) => Math.max(low, rect.bottom), -Infinity);
        const lens = [...editor.querySelectorAll('.codelens-decoration')].find((el) => {
          const rect = el.getBoundingClientRect();
          return rect.height > 0 && rect.top >= above - 1 && rect.bottom <= top + 1;
        });
        return lens ? lens.textContent.replace(/\u00a0/g, ' ') : null;
      },
      { selector: ACTIVE_EDITOR, line },
    );
  }

  /**
   * Where `word` is on a rendered line, measured now (a code lens that arrives
   * moves the lines below it): its 1-based column and the page position of its
   * middle; null when the line or the word is not on the screen.
   */
  async wordOnLine(line, word) {
    return this.page.evaluate(
      ({ selector, line, word }) => {
        const editor = document.querySelector(selector);
        const rows = [...(editor?.querySelectorAll('.margin-view-overlays > div') ?? [])];
        const row = rows.find((div) => div.querySelector('.line-numbers')?.textContent?.trim() === String(line));
        if (!row) {
          return null;
        }
        const view = [...editor.querySelectorAll('.view-lines > .view-line')].find((div) => div.style.top === row.style.top);
        if (!view) {
          return null;
        }
        const text = view.textContent.replace(/\u00a0/g, ' ');
        const index = text.indexOf(word);
        if (index < 0) {
          return null;
        }
        // the word's characters are in the line's text nodes, in order
        const walker = document.createTreeWalker(view, NodeFilter.SHOW_TEXT);
        let offset = 0;
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const length = node.textContent.length;
          if (index < offset + length) {
            const range = document.createRange();
            range.setStart(node, index - offset);
            range.setEnd(node, Math.min(length, index - offset + word.length));
            const rect = range.getBoundingClientRect();
            const box = editor.getBoundingClientRect();
            if (rect.width === 0 || rect.top < box.top || rect.bottom > box.bottom) {
              return null;
            }
            return { column: index + 1, x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 };
          }
          offset += length;
        }
        return null;
      },
      { selector: ACTIVE_EDITOR, line, word },
    );
  }

  /** The texts of the editor hovers on screen. */
  async editorHovers() {
    return this.page.locator('.monaco-editor .monaco-hover:not(.hidden)').allTextContents();
  }

  /**
   * Shows the hover of `word` on a line and returns its text once it holds
   * every string of `expect`. The hover is asked for again until then: with
   * the keyboard (the cursor on the word, then Show or Focus Hover, Ctrl+K
   * Ctrl+I), then with the mouse over the word, and so on in turn; a hover
   * that is still loading is waited for, not asked for again. Fails saying
   * whether no hover was ever drawn or what the last one lacked.
   */
  async hoverText(line, word, expect, { timeout = 60_000, attemptTimeout = 8_000, ways = ['keyboard', 'mouse'] } = {}) {
    const deadline = Date.now() + timeout;
    const asked = { keyboard: 0, mouse: 0 };
    let lastHover;
    let lastProblem = 'nothing asked yet';
    for (let attempt = 0; Date.now() < deadline; attempt++) {
      const how = ways[attempt % ways.length];
      await this.page.keyboard.press('Escape');
      await this.parkMouse();
      let where;
      if (how === 'keyboard') {
        await this.gotoLine(line);
        where = await this.wordOnLine(line, word);
        if (where) {
          await this.gotoLine(line, where.column);
          await this.page.keyboard.press('Control+K');
          await this.page.keyboard.press('Control+I');
        }
      } else {
        where = await this.wordOnLine(line, word);
        if (where) {
          // two moves inside the word, as a hand would, so the editor sees the mouse rest there
          await this.page.mouse.move(where.x - 2, where.y);
          await this.page.mouse.move(where.x, where.y);
        }
      }
      if (!where) {
        lastProblem = `"${word}" was not on the screen on line ${line}`;
        await sleep(200);
        continue;
      }
      asked[how] += 1;
      const until = Math.min(deadline, Date.now() + attemptTimeout);
      for (;;) {
        const hovers = await this.editorHovers();
        const hit = hovers.find((h) => expect.every((e) => h.includes(e)));
        if (hit) {
          return hit;
        }
        if (hovers.length > 0) {
          lastHover = hovers.join(' | ');
        }
        const loading = hovers.some((h) => /Loading/.test(h));
        if (Date.now() > (loading ? deadline : until)) {
          break;
        }
        await sleep(200);
      }
      lastProblem = lastHover === undefined ? 'no hover' : 'a hover without the expected text';
    }
    const requests = `asked ${asked.keyboard} times with Ctrl+K Ctrl+I and ${asked.mouse} times with the mouse over "${word}"`;
    if (lastHover === undefined) {
      throw new Error(`hover never rendered on line ${line} in ${timeout / 1000}s (${requests}; last: ${lastProblem})`);
    }
    const missing = expect.filter((e) => !lastHover.includes(e));
    throw new Error(
      `hover rendered without ${JSON.stringify(missing)} on line ${line} (${requests}); last hover: ${JSON.stringify(lastHover)}`,
    );
  }

  /**
   * Opens the light bulb menu (Ctrl+.) on a line and returns its action titles
   * once one satisfies `accept`; asks again while the menu does not show or
   * lacks it (the server answers code actions for the diagnostics it has sent).
   */
  async openQuickFixMenu(line, column, accept, { timeout = 45_000 } = {}) {
    const rows = this.page.locator('.action-widget .monaco-list-row.action');
    const deadline = Date.now() + timeout;
    let last = 'no light bulb menu';
    for (let attempt = 1; ; attempt++) {
      await this.gotoLine(line, column);
      await this.page.keyboard.press('Control+.');
      try {
        await rows.first().waitFor({ state: 'visible', timeout: Math.max(1_000, Math.min(10_000, deadline - Date.now())) });
        const titles = await rows.allTextContents();
        if (titles.some(accept)) {
          return titles;
        }
        last = `a light bulb menu with ${JSON.stringify(titles)}`;
      } catch {
        last = 'no light bulb menu';
      }
      if (Date.now() > deadline) {
        throw new Error(`the light bulb menu on line ${line} never offered the action after ${attempt} tries (last: ${last})`);
      }
      await this.page.keyboard.press('Escape');
    }
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

  /** Shows the Problems view (Ctrl+Shift+M, which hides it when it has the focus: pressed only while it is hidden). */
  async showProblems() {
    const markers = this.page.locator('.markers-panel');
    let pressed = 0;
    await waitFor('the Problems view', async () => {
      if (await markers.isVisible()) {
        return true;
      }
      // a key press the workbench dropped while busy is pressed again, every few polls
      if (pressed++ % 25 === 0) {
        await this.page.keyboard.press('Escape');
        await this.page.keyboard.press('Control+Shift+M');
      }
      return false;
    });
  }

  /** Types into the Problems view's filter box. */
  async filterProblems(text) {
    const input = this.page.locator('input[aria-label="Filter Problems"]');
    // a Problems view that has just opened can still reset its filter box:
    // type until it reads `text` on two polls in a row
    let held = 0;
    await waitFor(`the Problems filter to read "${text}"`, async () => {
      if ((await input.inputValue()) !== text) {
        held = 0;
        await input.fill(text);
        return false;
      }
      held += 1;
      return held >= 2;
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

  /**
   * Hovers a status bar item until its tooltip holds `text`; the mouse goes
   * off and on again every few seconds (an update of the item drops its tooltip).
   */
  async statusTooltip(id, text, { timeout = 30_000 } = {}) {
    let since = 0;
    return waitFor(`the tooltip of the status bar item ${id} with "${text}"`, async () => {
      const tooltips = await this.page.locator('.monaco-hover:not(.hidden), .workbench-hover').allTextContents();
      const hit = tooltips.find((t) => t.includes(text));
      if (hit) {
        return hit;
      }
      if (Date.now() - since > 3_000) {
        since = Date.now();
        await this.parkMouse();
        await this.statusItem(id).hover({ timeout: 5_000 });
      }
      return false;
    }, { timeout });
  }

  /** Texts of the notification toasts on screen. */
  async notifications() {
    return this.page.locator('.notification-toast-container .notification-list-item-message').allTextContents();
  }

  async clearNotifications() {
    await this.runCommand('Notifications: Clear All Notifications');
  }
}
