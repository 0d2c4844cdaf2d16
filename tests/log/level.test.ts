/**
 * The Worker's log level (`LOG_LEVEL`): lines below it are never built, serialised or written, the level
 * comes from the environment (unset: the table's default, `info`; any case; an invalid value keeps the
 * level), and `logs` tells a hot path whether to build a line's fields at all.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { applyLogLevel, VARS } from '../../src/config/vars.js';
import { log, logs, setLogLevel } from '../../src/log/log.js';

/** Lines written to the console while `run` ran. */
function written(run: () => void): string[] {
  const lines: string[] = [];
  const spies = (['log', 'warn', 'error'] as const).map((level) =>
    vi.spyOn(console, level).mockImplementation((line: unknown) => {
      lines.push(String(line));
    }),
  );
  try {
    run();
  } finally {
    for (const s of spies) s.mockRestore();
  }
  return lines;
}

// The node project shares one module cache between files: put the level back as an isolate starts.
afterEach(() => {
  applyLogLevel({});
  setLogLevel('debug');
});

describe('the log level', () => {
  it('writes the lines at or above the level and none below it', () => {
    setLogLevel('warn');
    const lines = written(() => {
      log('debug', 't.debug');
      log('info', 't.info', { n: 1 });
      log('warn', 't.warn');
      log('error', 't.error');
    });
    expect(lines.map((l) => (JSON.parse(l) as { event: string }).event)).toEqual(['t.warn', 't.error']);
    expect([logs('debug'), logs('info'), logs('warn'), logs('error')]).toEqual([false, false, true, true]);
  });

  it('serialises nothing for a line below the level', () => {
    setLogLevel('error');
    const stringify = vi.spyOn(JSON, 'stringify');
    try {
      written(() => {
        log('info', 't.info', { n: 1 });
      });
      expect(stringify).not.toHaveBeenCalled();
    } finally {
      stringify.mockRestore();
    }
  });

  it('takes LOG_LEVEL from the environment: unset is the default (info), any case, an invalid value keeps the level', () => {
    expect(VARS.LOG_LEVEL.default).toBe('info');
    applyLogLevel({ LOG_LEVEL: 'WARN' });
    expect([logs('info'), logs('warn')]).toEqual([false, true]);
    applyLogLevel({ LOG_LEVEL: 'loud' });
    expect([logs('info'), logs('warn')]).toEqual([false, true]);
    applyLogLevel({});
    expect([logs('debug'), logs('info')]).toEqual([false, true]);
    applyLogLevel({ LOG_LEVEL: ' debug ' });
    expect(logs('debug')).toBe(true);
  });
});
