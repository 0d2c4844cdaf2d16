/**
 * @module
 * Cron triggers for the local stack: neither `wrangler dev` nor Miniflare fires `[triggers] crons` by
 * itself, so the stack does, through the runtime's scheduled-event route
 * (`/cdn-cgi/handler/scheduled?cron=…`), on the crons' own schedule (UTC, as Cloudflare runs them).
 * Node only.
 */

const FIELDS = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day of month', min: 1, max: 31 },
  {
    name: 'month',
    min: 1,
    max: 12,
    names: ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'],
  },
  { name: 'day of week', min: 0, max: 7, names: ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'] },
] as const;

/** A parsed cron expression: the allowed values of each field, and whether the day fields were restricted. */
export interface Cron {
  expr: string;
  sets: Set<number>[];
  domAny: boolean;
  dowAny: boolean;
}

function valueOf(text: string, field: (typeof FIELDS)[number]): number {
  const named = 'names' in field ? (field.names as readonly string[]).indexOf(text.toUpperCase()) : -1;
  const n = named >= 0 ? named + (field.name === 'month' ? 1 : 0) : /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isInteger(n) || n < field.min || n > field.max)
    throw new Error(`${field.name}: ${JSON.stringify(text)} is not in ${field.min}-${field.max}`);
  return n;
}

/**
 * Parses a five-field cron expression: `*`, numbers, names (JAN, MON), ranges `a-b`, steps `x/n`, lists.
 * Throws for anything else (Cloudflare's `L`, `W` and `#` are not supported locally).
 */
export function parseCron(expr: string): Cron {
  const parts = expr.trim().split(/\s+/);
  if (parts.length !== 5) throw new Error(`cron ${JSON.stringify(expr)}: expected 5 fields, got ${parts.length}`);
  const sets = FIELDS.map((field, i) => {
    const part = parts[i] ?? '*';
    const set = new Set<number>();
    for (const item of part.split(',')) {
      const [range = '', stepText] = item.split('/');
      const step = stepText === undefined ? 1 : Number(stepText);
      if (!Number.isInteger(step) || step < 1)
        throw new Error(`cron ${JSON.stringify(expr)}: bad step in ${JSON.stringify(item)}`);
      let lo: number;
      let hi: number;
      if (range === '*') [lo, hi] = [field.min, field.max];
      else if (range.includes('-')) {
        const [a = '', b = ''] = range.split('-');
        [lo, hi] = [valueOf(a, field), valueOf(b, field)];
      } else {
        lo = valueOf(range, field);
        hi = stepText === undefined ? lo : field.max;
      }
      for (let v = lo; v <= hi; v += step) set.add(field.name === 'day of week' && v === 7 ? 0 : v);
    }
    return set;
  });
  return { expr, sets, domAny: parts[2] === '*', dowAny: parts[4] === '*' };
}

/** True when `cron` fires in the minute of `date` (UTC). Day of month and day of week combine as in cron(8). */
export function cronMatches(cron: Cron, date: Date): boolean {
  const [minute, hour, dom, month, dow] = cron.sets as [
    Set<number>,
    Set<number>,
    Set<number>,
    Set<number>,
    Set<number>,
  ];
  if (!minute.has(date.getUTCMinutes()) || !hour.has(date.getUTCHours()) || !month.has(date.getUTCMonth() + 1))
    return false;
  const domOk = dom.has(date.getUTCDate());
  const dowOk = dow.has(date.getUTCDay());
  if (cron.domAny || cron.dowAny) return domOk && dowOk;
  return domOk || dowOk;
}

/** Options of {@link startCronTimer}. */
export interface CronTimerOptions {
  /**
   * Fires the Worker's `scheduled` handler for `cron` at `at`; resolves to a problem to report, or null.
   * Default for {@link httpTrigger}: the runtime's `/cdn-cgi/handler/scheduled` route.
   */
  trigger: (cron: string, at: Date) => Promise<string | null>;
  /** The Worker's crons (wrangler.toml `[triggers] crons`); expressions that do not parse are reported and skipped. */
  crons: readonly string[];
  /** Fire every cron every `everyMs` instead of on its schedule (tests with a short STALL_SECONDS). */
  everyMs?: number;
  /** Told about a cron that cannot be parsed, or a trigger the runtime did not accept. Default: ignore. */
  onProblem?: (message: string) => void;
  /**
   * When the runtime started: the sweep after a restart ({@link RESTART_CRON}) is fired at once with this
   * time, before the first scheduled tick. Default: none.
   */
  restartedAt?: Date;
}

/**
 * The sweep a freshly started runtime gets at once (queues/sweeper.ts `RESTART_SWEEP_CRON`, cron(8)'s name
 * for "at startup"): work an earlier runtime left unfinished resumes now, not after `STALL_SECONDS`.
 */
export const RESTART_CRON = '@reboot';

/**
 * A {@link CronTimerOptions.trigger} through Miniflare's `/cdn-cgi/handler/scheduled` route (its
 * `unsafeTriggerHandlers`; wrangler dev takes {@link wranglerTrigger}); a refusal is reported with the runtime's answer
 * (Miniflare's is the handler's outcome, e.g. `exception`).
 * @param worker Miniflare only: the Worker to send it to (`MF-Route-Override`). With [assets], the entry
 *   otherwise goes to the asset router, which has no scheduled handler.
 */
export function httpTrigger(url: string, worker?: string): CronTimerOptions['trigger'] {
  return async (cron, at) => {
    const query = new URLSearchParams({ cron, time: String(at.getTime()) });
    const r = await fetch(`${url}/cdn-cgi/handler/scheduled?${query.toString()}`, {
      ...(worker !== undefined ? { headers: { 'MF-Route-Override': worker } } : {}),
    });
    const text = (await r.text()).trim();
    return r.ok ? null : `scheduled event for ${cron}: HTTP ${r.status}${text ? ` ${text}` : ''}`;
  };
}

/**
 * The `wrangler dev` flag {@link wranglerTrigger} needs: it bundles wrangler's middleware that answers
 * `/__scheduled?cron=…` by running the Worker's own `scheduled` handler.
 */
export const WRANGLER_SCHEDULED_FLAG = '--test-scheduled';

/**
 * A {@link CronTimerOptions.trigger} for `wrangler dev` (started with {@link WRANGLER_SCHEDULED_FLAG}), through
 * `/__scheduled` instead of {@link httpTrigger}'s route. With [assets], wrangler dev's entry is Miniflare's
 * assets proxy, which has no scheduled handler: `/cdn-cgi/handler/scheduled` answers 500 `exception` there,
 * and wrangler's own proxy in front takes the `MF-Route-Override` header that would name the Worker. The
 * middleware runs inside the Worker, so the event reaches it; it takes no time, so the handler's
 * `scheduledTime` is when the event is fired (for {@link RESTART_CRON}: just after the runtime answered, not
 * `at`).
 */
export function wranglerTrigger(url: string): CronTimerOptions['trigger'] {
  return async (cron) => {
    const r = await fetch(`${url}/__scheduled?${new URLSearchParams({ cron }).toString()}`);
    const text = (await r.text()).trim();
    return r.ok ? null : `scheduled event for ${cron}: HTTP ${r.status}${text ? ` ${text.slice(0, 200)}` : ''}`;
  };
}

/** Fires the crons until `stop()`; the timer never keeps the process alive by itself. */
export function startCronTimer(options: CronTimerOptions): { stop(): void } {
  const crons: Cron[] = [];
  for (const expr of options.crons) {
    try {
      crons.push(parseCron(expr));
    } catch (e) {
      options.onProblem?.(
        `cron ${JSON.stringify(expr)} is not run locally: ${e instanceof Error ? e.message : String(e)}`,
      );
    }
  }
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const fire = async (expr: string, at: Date) => {
    try {
      const problem = await options.trigger(expr, at);
      if (problem !== null && !stopped) options.onProblem?.(problem);
    } catch {
      // The runtime is down (stopping, or crashed in a test): the next tick tries again.
    }
  };
  const tick = () => {
    if (stopped) return;
    const now = new Date();
    for (const cron of crons) if (options.everyMs !== undefined || cronMatches(cron, now)) void fire(cron.expr, now);
    schedule();
  };
  const schedule = () => {
    // On the minute, as the platform does; a little after it, so the minute has begun on every clock.
    const delay = options.everyMs ?? 60_000 - (Date.now() % 60_000) + 50;
    timer = setTimeout(tick, delay);
    timer.unref();
  };
  if (crons.length > 0) schedule();
  if (options.restartedAt) void fire(RESTART_CRON, options.restartedAt);
  return {
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
