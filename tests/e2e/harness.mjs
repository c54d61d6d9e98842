// Starts a real VS Code (code-server) with the packaged extension installed
// and a browser showing its workbench, and stops both again.
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, createWriteStream, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { chromium } from 'playwright-core';

export const CHROMIUM = process.env.CAIRN_E2E_CHROMIUM ?? '/usr/bin/chromium';

/** Flags Chromium needs on this kind of machine: no sandbox as root, no GPU, no calls home. */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/** User settings that keep the workbench quiet and point the extension at the server. */
export function userSettings(serverPath) {
  return {
    'cairn.server.path': serverPath,
    'cairn.trace.server': 'messages',
    'security.workspace.trust.enabled': false,
    'workbench.startupEditor': 'none',
    'workbench.tips.enabled': false,
    'workbench.welcomePage.walkthroughs.openOnInstall': false,
    'workbench.enableExperiments': false,
    'workbench.secondarySideBar.defaultVisibility': 'hidden',
    'chat.disableAIFeatures': true,
    'telemetry.telemetryLevel': 'off',
    'update.mode': 'none',
    'extensions.autoUpdate': false,
    'extensions.autoCheckUpdates': false,
    'extensions.ignoreRecommendations': true,
    'git.enabled': false,
    'editor.minimap.enabled': false,
    'editor.hover.delay': 150,
    'editor.fontSize': 14,
    'editor.wordWrap': 'on',
    'files.autoSave': 'off',
    'window.restoreWindows': 'none',
  };
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function waitForHttp(url, timeoutMs, isAlive) {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    if (!isAlive()) {
      throw new Error(`code-server exited before ${url} answered`);
    }
    try {
      const response = await fetch(url);
      if (response.ok) {
        return;
      }
      last = `HTTP ${response.status}`;
    } catch (error) {
      last = String(error.cause?.code ?? error);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000}s (${last})`);
}

/**
 * A running code-server with its own user-data and extensions folders under
 * `workDir`, the extension installed from `vsix`, `folder` open.
 */
export class CodeServer {
  constructor({ codeServer, vsix, workDir, folder, settings, logFile }) {
    this.codeServer = codeServer;
    this.vsix = vsix;
    this.folder = folder;
    this.userDataDir = path.join(workDir, 'user-data');
    this.extensionsDir = path.join(workDir, 'extensions');
    this.home = path.join(workDir, 'home');
    this.settings = settings;
    this.logFile = logFile;
    this.process = undefined;
    this.exited = false;
  }

  /**
   * code-server's own config and logs go to the work folder, never to $HOME;
   * no judge or ask URL from the caller's environment (it would allow any).
   */
  env() {
    const { CAIRN_JUDGE_URL: _judge, CAIRN_ASK_URL: _ask, ...env } = process.env;
    return {
      ...env,
      XDG_CONFIG_HOME: path.join(this.home, '.config'),
      XDG_DATA_HOME: path.join(this.home, '.local', 'share'),
      XDG_CACHE_HOME: path.join(this.home, '.cache'),
    };
  }

  common() {
    return ['--user-data-dir', this.userDataDir, '--extensions-dir', this.extensionsDir];
  }

  installExtension() {
    mkdirSync(path.join(this.userDataDir, 'User'), { recursive: true });
    mkdirSync(this.extensionsDir, { recursive: true });
    writeFileSync(path.join(this.userDataDir, 'User', 'settings.json'), JSON.stringify(this.settings, null, 2));
    // code-server runs the extension host as a remote one, and a remote extension
    // host takes machine-scoped settings (cairn.server.path) from the machine's
    // settings file only, never from the browser's user settings.
    mkdirSync(path.join(this.userDataDir, 'Machine'), { recursive: true });
    writeFileSync(path.join(this.userDataDir, 'Machine', 'settings.json'), JSON.stringify(this.settings, null, 2));
    const result = spawnSync(this.codeServer, [...this.common(), '--install-extension', this.vsix], {
      env: this.env(),
      encoding: 'utf8',
      timeout: 120_000,
    });
    if (result.status !== 0) {
      throw new Error(`installing ${this.vsix} failed:\n${result.stdout}\n${result.stderr}`);
    }
    return result.stdout.trim();
  }

  async start() {
    this.port = await freePort();
    const log = createWriteStream(this.logFile);
    this.process = spawn(
      this.codeServer,
      [
        '--auth', 'none',
        '--bind-addr', `127.0.0.1:${this.port}`,
        '--disable-telemetry',
        '--disable-update-check',
        '--disable-workspace-trust',
        '--disable-getting-started-override',
        '--config', path.join(this.home, 'config.yaml'),
        ...this.common(),
        this.folder,
      ],
      // its own process group, so that stop() ends the extension host and the server too
      { env: this.env(), detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    // test.sh ends this group if the driver itself is killed before its clean-up
    if (process.env.CAIRN_E2E_PIDFILE) {
      appendFileSync(process.env.CAIRN_E2E_PIDFILE, `${this.process.pid}\n`);
    }
    this.process.stdout.pipe(log);
    this.process.stderr.pipe(log);
    this.process.on('exit', () => (this.exited = true));
    await waitForHttp(`http://127.0.0.1:${this.port}/healthz`, 90_000, () => !this.exited);
    return `http://127.0.0.1:${this.port}/?folder=${encodeURIComponent(this.folder)}`;
  }

  async stop() {
    const child = this.process;
    if (child === undefined || this.exited) {
      return;
    }
    const gone = new Promise((resolve) => child.once('exit', resolve));
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      return;
    }
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }, 5000);
    await gone;
    clearTimeout(timer);
    // the extension host and the language server are in the same group; make sure none is left
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // the group is empty
    }
  }
}

const browserGroups = [];

/** Finds the process groups that children of this process lead (Chromium's), for the clean-up and test.sh's trap. */
function recordChildGroups() {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) {
      continue;
    }
    try {
      // /proc/PID/stat: pid (comm) state ppid pgrp ...
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[1]) === process.pid && Number(fields[2]) === Number(entry)) {
        browserGroups.push(Number(entry));
        if (process.env.CAIRN_E2E_PIDFILE) {
          appendFileSync(process.env.CAIRN_E2E_PIDFILE, `${entry}\n`);
        }
      }
    } catch {
      // the process ended meanwhile
    }
  }
}

/** `home`: where Chromium may write its crash database and caches, instead of $HOME. */
export async function launchBrowser(home) {
  const env = { ...process.env, XDG_CONFIG_HOME: path.join(home, '.config'), XDG_CACHE_HOME: path.join(home, '.cache') };
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, env });
  // Playwright starts Chromium in a process group of its own
  recordChildGroups();
  return browser;
}

/** Closes the browser and ends whatever is left of its process group. */
export async function closeBrowser(browser) {
  await browser.close().catch(() => undefined);
  for (const group of browserGroups.splice(0)) {
    try {
      process.kill(-group, 'SIGKILL');
    } catch {
      // the group has already ended
    }
  }
}
