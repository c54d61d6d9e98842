// The end-to-end test: the packaged extension in a real VS Code (code-server),
// with the real Cairn server, on a fresh copy of the demo workspace, driven
// through the page as a writer would use it. Each step saves a screenshot
// under test-output/e2e/; the squiggle, hover and quick-fix shots also go to
// docs/images/ (see CAIRN_E2E_UPDATE_IMAGES below).
//
// Environment: CODE_SERVER (the code-server executable), CAIRN_PYTHON (the
// interpreter with cairn installed; the server is the `cairn` beside it),
// VSIX (client-vscode/cairn.vsix). Optional: CAIRN_E2E_KEEP=1 keeps the work
// folder, CAIRN_E2E_TIMEOUT (seconds, default 900) bounds the whole run,
// CAIRN_E2E_UPDATE_IMAGES=1 refreshes docs/images/.
import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { closeBrowser, CodeServer, launchBrowser, userSettings } from './harness.mjs';
import { waitFor, Workbench } from './workbench.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..', '..');
const outDir = path.join(repo, 'test-output', 'e2e');
const docsImages = path.join(repo, 'docs', 'images');

function required(name) {
  const value = process.env[name];
  if (!value) {
    throw new Error(`${name} is not set`);
  }
  return value;
}

const codeServerBin = required('CODE_SERVER');
const python = required('CAIRN_PYTHON');
const cairn = path.join(path.dirname(python), 'cairn');
const vsix = process.env.VSIX ?? path.join(repo, 'client-vscode', 'cairn.vsix');
const keep = process.env.CAIRN_E2E_KEEP === '1';
const overallTimeout = Number(process.env.CAIRN_E2E_TIMEOUT ?? 900) * 1000;

const DRAFT = 'drafts/review-notes.md';
const ANSWER = 'drafts/credits-answer.md';
const POLICY = 'sources/policy.md';
const FAQ = 'sources/faq.txt';
const STATUS_ID = 'cairn.cairn.cairn.status';
// Judge URLs a workspace names (TEST-NET-1 addresses, outside the loopback
// interface): the server may contact such a URL only when the user's own
// settings name it. No API key is ever set, so nothing is contacted either way.
const WORKSPACE_TOML_JUDGE = 'http://192.0.2.1/v1';
const WORKSPACE_SETTINGS_JUDGE = 'http://192.0.2.2/v1';
const UNSET_KEY = 'CAIRN_E2E_NO_SUCH_KEY';

// ---------------------------------------------------------------- set-up

rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });
const work = mkdtempSync(path.join(os.tmpdir(), 'cairn-e2e-'));
const demo = path.join(work, 'demo');

let codeServer;
let browser;
let page;
let cleaning;

async function cleanup() {
  if (cleaning) {
    return cleaning;
  }
  cleaning = (async () => {
    if (browser) {
      await closeBrowser(browser);
    }
    await codeServer?.stop().catch(() => undefined);
    copyLogs();
    if (!keep) {
      rmSync(work, { recursive: true, force: true });
    } else {
      console.log(`kept ${work}`);
    }
  })();
  return cleaning;
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    console.error(`e2e: ${signal}; stopping code-server and the browser`);
    void cleanup().then(() => process.exit(130));
  });
}
const watchdog = setTimeout(() => {
  console.error(`e2e: the whole run took longer than ${overallTimeout / 1000}s`);
  void failed(new Error('overall timeout')).then(() => process.exit(1));
}, overallTimeout);

function copyLogs() {
  const logs = path.join(work, 'user-data', 'logs');
  if (existsSync(logs)) {
    cpSync(logs, path.join(outDir, 'logs'), { recursive: true });
  }
  const csLog = path.join(work, 'code-server.log');
  if (existsSync(csLog)) {
    cpSync(csLog, path.join(outDir, 'code-server.log'));
  }
}

/** The Cairn output channel's log, for failure messages. */
function cairnLog() {
  const logs = path.join(work, 'user-data', 'logs');
  const found = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir)) {
      const full = path.join(dir, entry);
      if (statSync(full).isDirectory()) {
        walk(full);
      } else if (entry === 'Cairn.log') {
        found.push(full);
      }
    }
  };
  if (existsSync(logs)) {
    walk(logs);
  }
  return found.map((file) => readFileSync(file, 'utf8')).join('\n');
}

async function failed(error) {
  console.error(`\nFAILED: ${error.stack ?? error}`);
  if (page) {
    await page.screenshot({ path: path.join(outDir, 'failure.png') }).catch(() => undefined);
  }
  const log = cairnLog();
  if (log) {
    console.error(`--- Cairn output (last 60 lines) ---\n${log.split('\n').slice(-60).join('\n')}`);
  }
  await cleanup();
}

/**
 * What `cairn check --format json` says about the workspace's files on disk.
 * Run with code-server's environment, as the editor's server is: both then
 * keep Cairn's machine key in the same data folder, as on a writer's machine
 * (each would otherwise distrust the versions the other stored).
 */
function cliReport() {
  const result = spawnSync(cairn, ['check', '--format', 'json'], {
    cwd: demo,
    encoding: 'utf8',
    timeout: 120_000,
    env: codeServer.env(),
  });
  if (result.status !== 0 && result.status !== 1) {
    throw new Error(`cairn check failed (${result.status}): ${result.stderr}`);
  }
  try {
    return JSON.parse(result.stdout);
  } catch {
    throw new Error(`cairn check (exit ${result.status}) printed no JSON report: ${result.stdout}\n${result.stderr}`);
  }
}

function percent(value) {
  return value === null ? '—' : `${Math.round(value * 100)}%`;
}

function statusText(metrics) {
  return `Cairn ${percent(metrics.citation_validity)} valid · ${percent(metrics.faithfulness)} faithful`;
}

function diagnosticsOf(report, draftPath) {
  const draft = report.drafts.find((d) => d.path === draftPath);
  if (!draft) {
    throw new Error(`cairn check reported no ${draftPath}`);
  }
  return draft.claims.flatMap((claim) => claim.diagnostics.map((d) => ({ ...d, claim })));
}

/** 1-based number of the first line of `file` in the demo that contains `text`. */
function lineOf(relativePath, text) {
  const lines = readFileSync(path.join(demo, relativePath), 'utf8').split('\n');
  const index = lines.findIndex((line) => line.includes(text));
  if (index < 0) {
    throw new Error(`${relativePath} has no line with ${JSON.stringify(text)}`);
  }
  return index + 1;
}

/** 1-based number of the first line from `line` on that opens a cite block (its code lens is drawn above it). */
function fenceFrom(relativePath, line) {
  const lines = readFileSync(path.join(demo, relativePath), 'utf8').split('\n');
  const index = lines.findIndex((text, i) => i >= line - 1 && text.trimStart().startsWith('```cite'));
  if (index < 0) {
    throw new Error(`${relativePath} has no cite block after line ${line}`);
  }
  return index + 1;
}

let stepNumber = 0;
const started = Date.now();
const timings = [];

/**
 * Runs one step of the test. `retries` (at most 2, for steps that change
 * nothing a second run would trip over) runs the step again after a failure,
 * from a quiet workbench, and says so in the log: a real regression fails
 * every time and still fails the test.
 */
async function step(title, body, { retries = 0 } = {}) {
  stepNumber += 1;
  const t0 = Date.now();
  process.stdout.write(`e2e ${String(stepNumber).padStart(2)}. ${title} ... `);
  for (let attempt = 0; ; attempt++) {
    try {
      await body();
      break;
    } catch (error) {
      if (attempt >= Math.min(retries, 2)) {
        throw error;
      }
      const first = String(error.message ?? error).split('\n')[0];
      console.log(`\ne2e ${String(stepNumber).padStart(2)}. retry ${attempt + 1}/${Math.min(retries, 2)} after ${((Date.now() - t0) / 1000).toFixed(1)}s: ${first}`);
      await page?.screenshot({ path: path.join(outDir, `${String(stepNumber).padStart(2, '0')}-retry${attempt + 1}.png`) }).catch(() => undefined);
      await quiet();
      process.stdout.write(`e2e ${String(stepNumber).padStart(2)}. ${title} (again) ... `);
    }
  }
  const seconds = (Date.now() - t0) / 1000;
  timings.push({ step: stepNumber, seconds });
  console.log(`ok (${seconds.toFixed(1)}s)`);
}

/** Before a step runs again: no menu, quick input, hover or panel left open, the mouse out of the way. */
async function quiet() {
  if (!page) {
    return;
  }
  for (let i = 0; i < 3; i++) {
    await page.keyboard.press('Escape').catch(() => undefined);
  }
  await page.mouse.move(24, 500).catch(() => undefined);
}

async function shot(name, { editorOnly = false } = {}) {
  const file = path.join(outDir, `${String(stepNumber).padStart(2, '0')}-${name}.png`);
  if (editorOnly) {
    const box = await page.locator('.part.editor').boundingBox();
    await page.screenshot({ path: file, clip: box });
  } else {
    await page.screenshot({ path: file });
  }
  return file;
}

// ---------------------------------------------------------------- the test

try {
  // A git repository whose history holds the earlier policy edition, as on a writer's machine.
  execFileSync(python, [path.join(repo, 'fixtures', 'make_demo.py'), demo], { stdio: 'ignore' });
  // The workspace's own settings name a judge URL in every spelling VS Code
  // reads: the registered key, unregistered keys above it and a language
  // block. Only the last step gives it a use.
  mkdirSync(path.join(demo, '.vscode'));
  writeFileSync(
    path.join(demo, '.vscode', 'settings.json'),
    JSON.stringify(
      {
        'cairn.judge.url': WORKSPACE_SETTINGS_JUDGE,
        'cairn.judge': { url: WORKSPACE_SETTINGS_JUDGE },
        cairn: { judge: { url: WORKSPACE_SETTINGS_JUDGE } },
        '[markdown]': { 'cairn.judge.url': WORKSPACE_SETTINGS_JUDGE },
      },
      null,
      2,
    ),
  );
  codeServer = new CodeServer({
    codeServer: codeServerBin,
    vsix,
    workDir: work,
    folder: demo,
    settings: userSettings(cairn),
    logFile: path.join(work, 'code-server.log'),
  });

  await step('install the packaged extension into code-server', async () => {
    const out = codeServer.installExtension();
    if (!/successfully installed/i.test(out)) {
      throw new Error(`unexpected install output: ${out}`);
    }
  });

  const url = await codeServer.start();
  browser = await launchBrowser(path.join(work, 'browser-home'));
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(url).origin });
  page = await context.newPage();
  const wb = new Workbench(page);

  await step('open the demo workspace in the workbench', async () => {
    await page.goto(url);
    await wb.ready();
    await shot('workbench');
  });

  let before;
  let draftProblems;
  await step('the server checks the workspace (status bar figures appear)', async () => {
    await wb.openFile(DRAFT);
    // the first check includes starting the server and indexing the sources
    await waitFor(
      'figures in the status bar',
      async () => /\d+% valid/.test((await wb.statusItem(STATUS_ID).textContent()) ?? ''),
      { timeout: 120_000 },
    );
    // What the command line says about the same files and the same store is what the editor must show.
    before = cliReport();
    draftProblems = diagnosticsOf(before, DRAFT).filter((d) => d.severity === 'error' || d.severity === 'warning');
    if (!draftProblems.some((d) => d.severity === 'error') || !draftProblems.some((d) => d.severity === 'warning')) {
      throw new Error(`${DRAFT} should have both errors and warnings in the demo`);
    }
    if (diagnosticsOf(before, ANSWER).some((d) => d.code === 'span-shifted')) {
      throw new Error(`${ANSWER} should start without span-shifted citations`);
    }
  });

  await step(`error and warning squiggles on the bad citations of ${DRAFT}`, async () => {
    for (const problem of draftProblems) {
      await wb.waitForLineSquiggles(
        problem.line,
        (s) => s.includes(`squiggly-${problem.severity}`),
        `a ${problem.severity} squiggle (${problem.code})`,
        60_000,
      );
    }
    const quoteLine = draftProblems.find((d) => d.code === 'quote-not-found').line;
    await wb.gotoLine(quoteLine);
    await shot('squiggles', { editorOnly: true });
  }, { retries: 2 });

  await step('the Problems view lists the cairn codes', async () => {
    await wb.showProblems();
    const codes = [...new Set(draftProblems.map((d) => d.code))];
    for (const code of codes) {
      await wb.filterProblems(code);
      await waitFor(`a Problems row with cairn(${code})`, async () => {
        const rows = await wb.problemRows();
        return rows.some((r) => r.includes('review-notes.md')) && rows.some((r) => r.includes('cairn') && r.includes(code));
      });
    }
    await wb.filterProblems('cairn');
    await waitFor('the Problems view filtered to cairn', async () => {
      const rows = await wb.problemRows();
      return rows.length > 2 && rows.slice(1).every((r) => r.includes('cairn') || /\[Ln \d+/.test(r));
    });
    await shot('problems');
    await wb.filterProblems('');
  }, { retries: 2 });

  await step('the status bar shows the workspace figures', async () => {
    const item = wb.statusItem(STATUS_ID);
    const expected = statusText(before.metrics);
    await waitFor(`the status bar to read "${expected}"`, async () => (await item.textContent())?.includes(expected));
    await wb.statusTooltip(STATUS_ID, `${before.metrics.verified_claims} of ${before.metrics.claims} claims verified`);
    await shot('status-bar');
    await wb.parkMouse();
  }, { retries: 2 });

  await step('clicking the status bar opens the citation report', async () => {
    await wb.closePanel();
    await wb.statusItem(STATUS_ID).click();
    await waitFor(
      'the report webview opened by the status bar item',
      async () => {
        for (const frame of page.frames()) {
          const text = await frame.evaluate(() => document.body?.innerText ?? '').catch(() => '');
          if (text.includes('Cairn citation report') && text.includes('Citation validity')) {
            return true;
          }
        }
        return false;
      },
      { timeout: 60_000 },
    );
    await wb.runCommand('View: Close All Editors');
  }, { retries: 2 });

  await step(`a hover on a claim of ${ANSWER} shows its source quote`, async () => {
    await wb.openFile(ANSWER);
    const claimLine = lineOf(ANSWER, 'Approved credits go back');
    const fence = fenceFrom(ANSWER, claimLine);
    // the code lens over the claim's cite block: the server has checked this draft and found the claim supported
    await wb.gotoLine(fence);
    await waitFor(`a "supported" code lens over the cite block of the claim on line ${claimLine}`, async () => {
      const lens = await wb.codeLensAbove(fence);
      if (lens !== null && !/^supported\b/.test(lens)) {
        throw new Error(`the lens there reads "${lens}"`);
      }
      return lens !== null;
    }, { timeout: 60_000 });
    const squiggles = await wb.lineDecorations(claimLine);
    if (squiggles === null || squiggles.length > 0) {
      throw new Error(`a verified claim should have no squiggle; line ${claimLine} has ${JSON.stringify(squiggles)}`);
    }
    await wb.hoverText(claimLine, 'Approved', ['Credits are issued to the original payment method', POLICY]);
    await shot('hover', { editorOnly: true });
    await page.keyboard.press('Escape');
  }, { retries: 2 });

  let afterFix;
  await step('a quick-fix from the light bulb removes its squiggle', async () => {
    await wb.openFile(DRAFT);
    const target = draftProblems.find(
      (d) => d.code === 'quote-not-found' && /whitespace|quote marks|dashes/.test(d.message),
    );
    if (!target) {
      throw new Error(`${DRAFT} has no quote-not-found that differs only in quote marks`);
    }
    await wb.waitForLineSquiggles(target.line, (s) => s.includes('squiggly-error'), 'the quote-not-found squiggle', 60_000);
    const before = await wb.lineText(target.line);
    const titles = await wb.openQuickFixMenu(target.line, 3, (t) => /quote/i.test(t));
    const fix = titles.find((t) => /quote/i.test(t));
    await shot('quick-fix', { editorOnly: true });
    await wb.chooseQuickFix(fix);
    await wb.waitForLineSquiggles(target.line, (s) => !s.includes('squiggly-error'), 'the squiggle to go', 60_000);
    const after = await wb.lineText(target.line);
    if (after === before) {
      throw new Error(`the fix did not change line ${target.line}: ${after}`);
    }
    await shot('fixed', { editorOnly: true });
    await wb.save();
    afterFix = cliReport();
    if (diagnosticsOf(afterFix, DRAFT).some((d) => d.line === target.line && d.code === 'quote-not-found')) {
      throw new Error('cairn check still reports the fixed quote');
    }
  });

  await step('the status bar follows the fix', async () => {
    const expected = statusText(afterFix.metrics);
    if (expected === statusText(before.metrics)) {
      throw new Error(`the fix should change the figures (${expected})`);
    }
    await waitFor(
      `the status bar to read "${expected}"`,
      async () => (await wb.statusItem(STATUS_ID).textContent())?.includes(expected),
      { timeout: 60_000 },
    );
  });

  await step('a paragraph typed between a claim and its bound block gives claim-moved; the fix moves the block back', async () => {
    const BOUND = 'drafts/bound.md';
    const claim = 'A customer has 14 days to request a credit for a damaged delivery.';
    writeFileSync(path.join(demo, BOUND), [
      claim, '', '```cite', 'chunk_id: 691d71e4b46d8b0d', 'start: 0', 'end: 65',
      'quote: "A customer has 14 days to request a credit for a damaged delivery"',
      'source: sources/policy.md', 'version: 9b3c4325200c', 'claim: "A customer has 14 days to request a"', '```', '',
    ].join('\n'));
    await wb.openFile(BOUND);
    const fence = fenceFrom(BOUND, 1);
    await wb.gotoLine(fence);
    await waitFor('a "supported" code lens over the bound block', async () => /^supported\b/.test((await wb.codeLensAbove(fence)) ?? ''), {
      timeout: 60_000,
    });
    // the writer types a new paragraph at the end of the claim: the block now follows it
    await wb.gotoLine(1, claim.length + 1);
    await wb.type('\n\nThe warehouse is staffed around the clock.');
    const moved = fence + 2;
    await wb.waitForLineSquiggles(moved, (s) => s.includes('squiggly-warning'), 'the claim-moved warning on the fence', 60_000);
    await shot('claim-moved', { editorOnly: true });
    const titles = await wb.openQuickFixMenu(moved, 1, (t) => /Move this block back under its claim/.test(t));
    await wb.chooseQuickFix(titles.find((t) => /Move this block back under its claim/.test(t)));
    await waitFor('the block back under its claim', async () => (await wb.lineText(fence)).startsWith('```cite'), { timeout: 30_000 });
    await wb.waitForLineSquiggles(fence, (s) => !s.includes('squiggly-warning'), 'the claim-moved warning to go', 60_000);
    await wb.save();
    const report = cliReport();
    if (diagnosticsOf(report, BOUND).some((d) => d.code === 'claim-moved')) {
      throw new Error('cairn check still reports claim-moved after the fix');
    }
    const claims = report.drafts.find((d) => d.path === BOUND).claims;
    if (claims.length !== 1 || claims[0].text !== claim || !claims[0].supported) {
      throw new Error(`the block should back its claim again: ${JSON.stringify(claims)}`);
    }
    await page.keyboard.press('Control+W'); // saved: closes without asking
    rmSync(path.join(demo, BOUND)); // the rest of the run counts the demo's own drafts
  });

  // Evidence for uncited paragraphs (issue 18): the light bulb's "Cite …" actions and "Find evidence".
  const EVIDENCE = 'drafts/evidence.md';
  const CREDITS = 'Credits are issued to the original payment method within 5 business days of approval.';
  const PERISHABLES = 'Perishable goods must be reported within 48 hours of delivery.';

  await step('the light bulb on an uncited paragraph offers its source; the inserted block verifies', async () => {
    writeFileSync(path.join(demo, EVIDENCE), `# Evidence\n\n${CREDITS}\n\n${PERISHABLES}\n`);
    await wb.openFile(EVIDENCE);
    const cite = (t) => /Cite sources\/policy\.md:\d+ · support \d\.\d\d/.test(t);
    // the first list may hold only "Cite a source for this claim" while the server searches: asked again until titled
    const titles = await wb.openQuickFixMenu(3, 5, cite);
    await shot('cite-for', { editorOnly: true });
    await wb.chooseQuickFix(titles.find(cite));
    await waitFor('the cite block inserted after the paragraph', async () => (await wb.lineText(5))?.startsWith('```cite'), {
      timeout: 30_000,
    });
    await waitFor('a "supported" code lens over the inserted block', async () => /^supported\b/.test((await wb.codeLensAbove(5)) ?? ''), {
      timeout: 60_000,
    });
    const squiggles = await wb.lineDecorations(3);
    if (squiggles === null || squiggles.length > 0) {
      throw new Error(`the cited claim should have no squiggle; line 3 has ${JSON.stringify(squiggles)}`);
    }
    await wb.save();
    const target = path.join(docsImages, 'cite-for.png');
    if (process.env.CAIRN_E2E_UPDATE_IMAGES === '1' || !existsSync(target)) {
      mkdirSync(docsImages, { recursive: true });
      cpSync(path.join(outDir, readdirSync(outDir).find((f) => f.endsWith('-cite-for.png'))), target);
      console.log(`\ne2e: wrote ${path.relative(repo, target)}`);
    }
  });

  await step('Find evidence lists the passages for the paragraph at the cursor; the chosen one is inserted', async () => {
    const line = lineOf(EVIDENCE, PERISHABLES);
    await wb.gotoLine(line, 3);
    await wb.runCommand('Cairn: Find evidence');
    const row = page.locator('.quick-input-list .monaco-list-row', { hasText: 'sources/policy.md' }).first();
    await row.waitFor({ state: 'visible', timeout: 60_000 });
    const text = (await row.textContent()) ?? '';
    if (!/support \d\.\d\d/.test(text) || !/reported within\s+48 hours/.test(text)) {
      throw new Error(`the first passage should show its support and its text: ${text}`);
    }
    await shot('find-evidence');
    await row.click();
    const fence = line + 2;
    await waitFor('the chosen cite block after the paragraph', async () => (await wb.lineText(fence))?.startsWith('```cite'), {
      timeout: 30_000,
    });
    await waitFor('a "supported" code lens over it', async () => /^supported\b/.test((await wb.codeLensAbove(fence)) ?? ''), {
      timeout: 60_000,
    });
    await wb.save();
    // what the command line makes of both inserted blocks
    const claims = cliReport().drafts.find((d) => d.path === EVIDENCE)?.claims ?? [];
    for (const claimText of [CREDITS, PERISHABLES]) {
      const claim = claims.find((c) => c.text === claimText);
      if (!claim || !claim.supported || claim.diagnostics.length > 0) {
        throw new Error(`cairn check should verify "${claimText}" with its new block: ${JSON.stringify(claim)}`);
      }
    }
    await page.keyboard.press('Control+W'); // saved: closes without asking
    rmSync(path.join(demo, EVIDENCE)); // the rest of the run counts the demo's own drafts
  });

  await step(`editing and saving ${POLICY} makes a span-shifted squiggle appear in ${ANSWER}`, async () => {
    const citation = lineOf(ANSWER, 'chunk_id: 691d71e4b46d8b0d') + 1; // its `start:` line
    const fence = fenceFrom(ANSWER, lineOf(ANSWER, 'A customer has 14 days'));
    await wb.openFile(ANSWER);
    // the lens over the block: the server has checked the draft, so no squiggle means none
    await wb.gotoLine(citation);
    await waitFor(`a code lens over the cite block on line ${fence}`, async () => (await wb.codeLensAbove(fence)) !== null, {
      timeout: 60_000,
    });
    const clean = await wb.lineDecorations(citation);
    if (clean === null || clean.length > 0) {
      throw new Error(`line ${citation} should have no squiggle before the edit: ${JSON.stringify(clean)}`);
    }
    await wb.openFile(POLICY);
    await wb.gotoLine(lineOf(POLICY, 'A customer has 14 days'), 1);
    await wb.type('In short: ');
    await wb.save();
    await wb.openFile(ANSWER);
    await wb.waitForLineSquiggles(citation, (s) => s.includes('squiggly-warning'), 'a span-shifted warning', 120_000);
    await wb.showProblems();
    await wb.filterProblems('span-shifted');
    await waitFor('span-shifted listed for credits-answer.md', async () =>
      (await wb.problemRows()).some((r) => r.includes('credits-answer.md')),
    );
    await shot('span-shifted');
    await wb.filterProblems('');
    await wb.closePanel();
  });

  await step('Copy selection as citation puts a cite block on the clipboard', async () => {
    await wb.openFile(FAQ);
    const line = lineOf(FAQ, 'Return shipping is free');
    await wb.gotoLine(line, 1);
    await page.keyboard.press('Shift+End');
    await waitFor('a selection in the editor', async () =>
      /selected/.test((await page.locator('[id="status.editor.selection"]').textContent()) ?? ''),
    );
    // the page can only use the clipboard while it has the focus, hence the waits
    await waitFor('the clipboard to be emptied', () =>
      page.evaluate(async () => {
        await navigator.clipboard.writeText('nothing yet');
        return (await navigator.clipboard.readText()) === 'nothing yet';
      }),
    );
    await wb.runCommand('Cairn: Copy selection as citation', { keepSelection: true });
    const clipboard = await waitFor(
      'a cite block on the clipboard and the "copied a cite block" message',
      async () => {
        const text = await page.evaluate(() => navigator.clipboard.readText());
        const messages = await wb.notifications();
        if (text !== 'nothing yet' && messages.some((n) => /copied a cite block/.test(n))) {
          return text;
        }
        throw new Error(`clipboard ${JSON.stringify(text.slice(0, 40))}, messages ${JSON.stringify(messages)}`);
      },
      { timeout: 60_000 },
    );
    if (!clipboard.startsWith('```cite') || !clipboard.includes('chunk_id') || !clipboard.includes('Return shipping is free')) {
      throw new Error(`unexpected clipboard: ${clipboard}`);
    }
    await shot('copy-citation');
    await wb.clearNotifications();
    // pasted under a claim in a draft, the block gets the claim's `claim` field and verifies
    const PASTED = 'drafts/pasted.md';
    const claim = 'Return shipping is free when the goods arrive damaged.';
    const bound = 'claim: "Return shipping is free when the goods arrive"';
    writeFileSync(path.join(demo, PASTED), `# Pasted\n\n${claim}\n\n`);
    await wb.openFile(PASTED);
    await wb.gotoLine(4, 1);
    await page.keyboard.press('Control+V');
    await waitFor('the pasted cite block with its claim field', async () => {
      for (let line = 4; line <= 14; line++) {
        if ((await wb.lineText(line))?.trim() === bound) {
          return true;
        }
      }
      return false;
    }, { timeout: 30_000 });
    await wb.save();
    const pasted = readFileSync(path.join(demo, PASTED), 'utf8');
    const block = pasted.slice(pasted.indexOf('```cite'));
    if (!pasted.startsWith(`# Pasted\n\n${claim}\n\`\`\`cite\n`) || !block.includes(`\n${bound}\n\`\`\`\n`) ||
        block.replace(`${bound}\n`, '').trimEnd() !== clipboard.trimEnd()) {
      throw new Error(`the pasted block should be the clipboard's with the claim field added:\n${pasted}`);
    }
    const claims = cliReport().drafts.find((d) => d.path === PASTED)?.claims ?? [];
    if (claims.length !== 1 || claims[0].text !== claim || !claims[0].supported || claims[0].diagnostics.length > 0) {
      throw new Error(`the pasted block should verify its claim: ${JSON.stringify(claims)}`);
    }
    await shot('pasted-citation', { editorOnly: true });
    await page.keyboard.press('Control+W'); // saved: closes without asking
    rmSync(path.join(demo, PASTED)); // the rest of the run counts the demo's own drafts
  }, { retries: 2 });

  await step('Go to definition on a citation of a superseded version opens the cited text, read-only, at the span', async () => {
    // drafts/review-notes.md cites the 2024 edition of the policy (fixtures/demo-history), since superseded
    const quote = 'A customer has 30 days to request a credit for a damaged delivery';
    const old = readFileSync(path.join(repo, 'fixtures', 'demo-history', POLICY), 'utf8').split('\n');
    const oldLine = old.findIndex((l) => l.includes(quote));
    const expected = `Ln ${oldLine + 1}, Col ${old[oldLine].indexOf(quote) + 1}`;
    const citation = lineOf(DRAFT, `quote: "${quote}"`);
    const fence = fenceFrom(DRAFT, lineOf(DRAFT, 'A customer has 30 days'));
    await wb.openFile(DRAFT);
    await wb.gotoLine(fence);
    // the lens over the block: the server has checked the draft and can answer for its citations
    await waitFor(`a code lens over the cite block on line ${fence}`, async () => (await wb.codeLensAbove(fence)) !== null, {
      timeout: 60_000,
    });
    await wb.gotoLine(citation, 12);
    await page.keyboard.press('F12');
    const editor = '.editor-group-container.active .editor-instance .monaco-editor';
    const uri = await waitFor('an editor of a cairn-source: document', () =>
      page.evaluate((selector) => {
        const found = document.querySelector(selector)?.getAttribute('data-uri') ?? '';
        return found.startsWith('cairn-source:') ? found : false;
      }, editor),
    { timeout: 30_000 });
    const tab = await page.locator('.editor-group-container.active .tab.active').getAttribute('aria-label');
    if (!tab?.startsWith('policy.md @977ec965')) {
      throw new Error(`the tab should name the source and the cited version: ${tab} (${uri})`);
    }
    // the cursor at the start of the span, on the cited version's line holding the quote
    await waitFor(`the cursor at ${expected}`, async () =>
      (await page.locator('[id="status.editor.selection"]').textContent())?.trim() === expected,
    );
    const line = await wb.lineText(oldLine + 1);
    if (!line?.includes(quote)) {
      throw new Error(`line ${oldLine + 1} of the cited text should hold the quote: ${line}`);
    }
    await shot('cited-text', { editorOnly: true });
    // read-only: a key typed there changes nothing and says so
    await page.keyboard.press('x');
    await waitFor('the "Cannot edit in read-only editor" message', async () =>
      (await page.locator('.monaco-editor-overlaymessage, .monaco-hover:not(.hidden)').allTextContents()).some((t) =>
        /read-only/.test(t),
      ),
    );
    if ((await wb.lineText(oldLine + 1)) !== line) {
      throw new Error('the cited text changed under a key press');
    }
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+W');
    await waitFor('the cited-text tab to close', () =>
      page.evaluate((selector) => !document.querySelector(selector)?.getAttribute('data-uri')?.startsWith('cairn-source:'), editor),
    );
  }, { retries: 2 });

  await step('Ask the sources inserts an answer whose claims are checked', async () => {
    const asked = 'drafts/asked.md';
    if (!existsSync(path.join(demo, asked))) {
      writeFileSync(path.join(demo, asked), '# Asked\n\n');
    }
    await wb.openFile(asked);
    await wb.gotoLine(3, 1);
    await wb.clearNotifications();
    await wb.runCommand('Cairn: Ask the sources…');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible', timeout: 10_000 });
    await input.fill('How long does a customer have to request a credit?');
    await page.keyboard.press('Enter');
    await waitFor(
      'the "inserted an extractive answer" message',
      async () => (await wb.notifications()).some((n) => /inserted an extractive answer/.test(n)),
      { timeout: 60_000 },
    );
    await wb.save();
    const text = readFileSync(path.join(demo, asked), 'utf8');
    if (!text.includes('```cite') || !text.includes('A customer has 14 days to request a credit')) {
      throw new Error(`unexpected answer: ${text}`);
    }
    const fence = text.split('\n').findIndex((l) => l.startsWith('```cite')) + 1;
    await waitFor(
      'the verdict lens above the inserted cite block',
      async () => /supported/.test((await wb.codeLensAbove(fence)) ?? ''),
      { timeout: 60_000 },
    );
    await shot('ask-sources', { editorOnly: true });
    await wb.clearNotifications();
  }, { retries: 2 });

  await step('Show citation report opens the report', async () => {
    await wb.runCommand('Cairn: Show citation report');
    await waitFor(
      'the report webview with the drafts',
      async () => {
        for (const frame of page.frames()) {
          const text = await frame.evaluate(() => document.body?.innerText ?? '').catch(() => '');
          if (text.includes('Cairn citation report') && text.includes(DRAFT) && text.includes('Citation validity')) {
            return true;
          }
        }
        return false;
      },
      { timeout: 60_000 },
    );
    await shot('report');
  }, { retries: 2 });

  await step('Re-index sources reports the sources', async () => {
    await wb.clearNotifications();
    await wb.runCommand('Cairn: Re-index sources');
    await waitFor(
      'the "indexed N sources" message',
      async () => (await wb.notifications()).some((n) => /Cairn indexed \d+ sources?/.test(n)),
      { timeout: 120_000 },
    );
    await wb.clearNotifications();
  }, { retries: 2 });

  await step('Restart server brings the figures back', async () => {
    const starts = () => cairnLog().split('Starting the Cairn server').length - 1;
    const before = starts();
    await wb.runCommand('Cairn: Restart server');
    await waitFor('another start of the server in the Cairn output', () => starts() > before, { timeout: 60_000 });
    // the new server has opened the workspace once it logs its first indexing
    await waitFor(
      'the restarted server to index the workspace',
      () => /indexed \d+ source/.test(cairnLog().split('Starting the Cairn server').pop()),
      { timeout: 60_000 },
    );
    const expected = statusText(cliReport().metrics);
    await waitFor(
      `the status bar to read "${expected}" after the restart`,
      async () => (await wb.statusItem(STATUS_ID).textContent())?.includes(expected),
      { timeout: 60_000 },
    );
  }, { retries: 2 });

  await step(`a judge URL in the workspace's .vscode/settings.json is not taken for the user's`, async () => {
    // The workspace's cairn.toml now asks for a judge outside the loopback
    // interface. Had the client passed on the workspace's "cairn.judge" as a user
    // setting, the server would trust that URL and only miss the key; it must
    // refuse the URL instead.
    const log = () => cairnLog().split('Starting the Cairn server').pop();
    appendFileSync(
      path.join(demo, 'cairn.toml'),
      `\n[judge]\nprovider = "openai"\nurl = "${WORKSPACE_TOML_JUDGE}"\nmodel = "e2e"\napi_key_env = "${UNSET_KEY}"\n`,
    );
    const refused = `refused to contact the judge URL ${WORKSPACE_TOML_JUDGE}`;
    const verdict = await waitFor(
      'the server to say what it makes of the judge (in the Cairn output)',
      () => log().split('\n').find((line) => line.includes(refused) || line.includes(UNSET_KEY)),
      { timeout: 90_000 },
    );
    if (!verdict.includes(refused)) {
      throw new Error(`the server took the workspace's judge URL as allowed by the user: ${verdict}`);
    }
    if (log().includes(WORKSPACE_SETTINGS_JUDGE)) {
      throw new Error(`the server was told the workspace's judge URL ${WORKSPACE_SETTINGS_JUDGE}`);
    }
  });

  // The three pictures of the README: written when missing or when asked for
  // (CAIRN_E2E_UPDATE_IMAGES=1), so that a test run leaves the work tree clean.
  mkdirSync(docsImages, { recursive: true });
  for (const [from, to] of [
    ['problems', 'squiggles.png'],
    ['hover', 'hover.png'],
    ['quick-fix', 'quick-fix.png'],
  ]) {
    const target = path.join(docsImages, to);
    if (process.env.CAIRN_E2E_UPDATE_IMAGES === '1' || !existsSync(target)) {
      const file = readdirSync(outDir).find((f) => f.endsWith(`-${from}.png`));
      cpSync(path.join(outDir, file), target);
      console.log(`e2e: wrote ${path.relative(repo, target)}`);
    }
  }

  clearTimeout(watchdog);
  await cleanup();
  const slowest = timings.reduce((a, b) => (b.seconds > a.seconds ? b : a));
  console.log(
    `e2e: all ${stepNumber} steps passed in ${((Date.now() - started) / 1000).toFixed(0)}s ` +
      `(slowest: step ${slowest.step}, ${slowest.seconds.toFixed(1)}s); screenshots in ${outDir}`,
  );
  process.exit(0);
} catch (error) {
  clearTimeout(watchdog);
  await failed(error);
  process.exit(1);
}
