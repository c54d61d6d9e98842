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
  'cairn.server.path',
];

/**
 * The `cairn` section as the server should see it: the client-side settings
 * (`server`, `trace`) removed, and empty strings and nulls dropped so that an
 * unset setting never overrides a default (`support.mode: ""` would otherwise
 * read as an unknown mode).
 */
export function settingsForServer(section: unknown): unknown {
  if (typeof section !== 'object' || section === null || Array.isArray(section)) {
    return section;
  }
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(section as Record<string, unknown>)) {
    if (key === 'server' || key === 'trace') {
      continue;
    }
    const cleaned = dropEmpty(value);
    if (cleaned !== undefined) {
      out[key] = cleaned;
    }
  }
  return out;
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
