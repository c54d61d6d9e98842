// Which setting changes restart the server, and what the server is sent when
// it asks for the "cairn" section. Pure: no VS Code here.

/** Settings the language client applies itself, without a restart. */
const LIVE_SETTINGS = ['cairn.trace.server'];

/**
 * Every other `cairn.*` setting restarts the server: the server reads its
 * configuration when it starts, and a restart re-checks every draft with the
 * new values (the chunk store on disk makes it cheap).
 */
export function changeNeedsRestart(affects: (section: string) => boolean): boolean {
  if (!affects('cairn')) {
    return false;
  }
  // The change touched `cairn`; restart unless it touched only live settings.
  const touched = SERVER_SETTINGS.filter((name) => affects(name));
  return touched.length > 0 || !LIVE_SETTINGS.some((name) => affects(name));
}

/** The settings the server reads, plus the launch setting. */
export const SERVER_SETTINGS = [
  'cairn.sources',
  'cairn.drafts',
  'cairn.exclude',
  'cairn.threshold',
  'cairn.support.mode',
  'cairn.judge.provider',
  'cairn.judge.url',
  'cairn.judge.model',
  'cairn.judge.api_key_env',
  'cairn.ask.provider',
  'cairn.ask.url',
  'cairn.ask.model',
  'cairn.ask.api_key_env',
  'cairn.store.url',
  'cairn.principal',
  'cairn.server.path',
];

/** Settings the client reads itself and never sends to the server. */
const CLIENT_SETTINGS = ['cairn.server.path', 'cairn.trace.server'];

/**
 * Settings the server may take only from the user's own settings (or, in a
 * remote window, the remote machine's): a judge or ask URL, or a shared index's
 * URL, the user names is one the server may contact, so a workspace must not be
 * able to name it; and the principal the user reads as is the user's, never the
 * workspace's.
 */
export const USER_ONLY_SETTINGS = ['cairn.judge.url', 'cairn.ask.url', 'cairn.store.url', 'cairn.principal'];

/** The part of `WorkspaceConfiguration.inspect()` used here. */
export interface SettingInspection {
  defaultValue?: unknown;
  globalValue?: unknown;
}

/** Reads registered settings by their full key, e.g. "cairn.judge.url". */
export interface SettingsSource {
  /** The effective value, with VS Code's scope rules applied. */
  get(key: string): unknown;
  inspect(key: string): SettingInspection | undefined;
}

/**
 * The `cairn` section as the server should see it, built key by key from the
 * settings the extension registers: never the section as VS Code merges it,
 * which also holds keys nobody registered (a workspace's settings.json can
 * write `"cairn.judge": {"url": ...}`, which VS Code does not check against
 * the scope of `cairn.judge.url`). The user-only settings come from the user
 * or machine value alone. Empty strings and nulls are left out, so that an
 * unset setting never overrides a default (`support.mode: ""` would otherwise
 * read as an unknown mode); the client-side settings are not sent.
 */
export function serverSection(source: SettingsSource): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of SERVER_SETTINGS) {
    if (CLIENT_SETTINGS.includes(key)) {
      continue;
    }
    const value = USER_ONLY_SETTINGS.includes(key) ? userValue(source.inspect(key)) : source.get(key);
    const cleaned = dropEmpty(value);
    if (cleaned === undefined) {
      continue;
    }
    const path = key.split('.').slice(1);
    let target = out;
    for (const part of path.slice(0, -1)) {
      const next = target[part];
      target = (typeof next === 'object' && next !== null ? next : (target[part] = {})) as Record<string, unknown>;
    }
    target[path[path.length - 1]] = cleaned;
  }
  return out;
}

function userValue(inspection: SettingInspection | undefined): unknown {
  return inspection?.globalValue ?? inspection?.defaultValue;
}

function dropEmpty(value: unknown): unknown {
  if (value === null || value === undefined || value === '') {
    return undefined;
  }
  if (typeof value === 'object' && !Array.isArray(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
      const cleaned = dropEmpty(inner);
      if (cleaned !== undefined) {
        out[key] = cleaned;
      }
    }
    return Object.keys(out).length > 0 ? out : undefined;
  }
  return value;
}
