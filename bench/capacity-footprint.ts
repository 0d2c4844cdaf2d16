/**
 * @module
 * The per-verdict footprint `npm run bench:capacity` measures (bench/capacity.ts) and the scale model reads
 * (bench/scale-model.ts): its shape, where the committed reference copy lives, and its printed tables.
 */

/** Where the committed reference footprint lives (repository-relative). */
export const CAPACITY_FOOTPRINT_PATH = 'bench/capacity-footprint.json';

/** One preset's figures, per verdict unless named otherwise. */
export interface PresetFootprint {
  preset: string;
  /** Items of the batch measured. */
  items: number;
  /** From the POST to the batch's end as polled, s. */
  seconds: number;
  perVerdict: {
    /** D1 pages in use after the run minus before, bytes. */
    d1Bytes: number;
    d1RowsWritten: number;
    d1RowsRead: number;
    d1Statements: number;
    /** Sum of D1's `meta.duration`, ms: the database's busy time. */
    d1BusyMs: number;
    /** Durable Object requests: RPC calls, fetches and alarms. */
    doRequests: number;
    /** Object SQLite pages in use, all classes, bytes. */
    doStorageBytes: number;
    queueMessages: number;
    /** The runtime's CPU (Node side + workerd), ms: an upper bound on the Worker's. */
    cpuMs: number;
    /** workerd's share of {@link cpuMs}, ms. */
    workerdCpuMs: number;
    /** LLM calls billed (`GET /v1/usage`); absent in footprints measured before it was counted. */
    llmCalls?: number;
  };
  /** D1 tables that changed: rows and bytes (with their indexes) per verdict. */
  d1Tables: Record<string, { rowsPerVerdict: number; bytesPerVerdict: number }>;
  /** By namespace binding: requests per verdict, and the busiest single object's. */
  objects: Record<
    string,
    {
      requestsPerVerdict: number;
      alarmsPerVerdict: number;
      objectsTouched: number;
      busiestObject: string | null;
      busiestObjectPerVerdict: number;
    }
  >;
  /** By object class: objects created and SQLite bytes per verdict; the largest object's bytes. */
  storage: Record<string, { objectsPerVerdict: number; bytesPerVerdict: number; largestObjectBytes: number }>;
  /** Messages sent per verdict, by producer binding. */
  queues: Record<string, number>;
  /** The D1 statements writing the most rows, per verdict (absent in figures measured before it was counted). */
  d1TopStatements?: { sql: string; runs: number; written: number; read: number }[];
  /**
   * The same preset's single evaluations (`POST /v1/evaluations` with `Prefer: wait`, one at a time, after the
   * batch on the same stack): judged, then the same tasks again as verdict cache hits. Absent in figures measured
   * before it was counted or with `--singles 0`.
   */
  single?: { judged: PresetFootprint; hit: PresetFootprint };
}

/** bench/out/capacity.json and its reference copy. */
export interface CapacityFootprint {
  /** UTC date of the run (YYYY-MM-DD). */
  measuredAt: string;
  /** The commit measured (short hash). */
  commit: string;
  items: number;
  answerWords: number;
  /** Where the state lived (tmpfs or disk). */
  state: string;
  presets: Record<string, PresetFootprint>;
}

const f1 = (x: number) => (Math.abs(x) >= 100 ? x.toFixed(0) : x.toFixed(1));

/** The printed tables: the per-verdict row of each preset, then each preset's D1 tables and objects. */
export function capacityTable(c: CapacityFootprint): string {
  const row = (p: PresetFootprint, label: string) => {
    const v = p.perVerdict;
    return `| ${label} | ${p.items} | ${f1(v.d1Bytes)} | ${f1(v.d1RowsWritten)} | ${f1(v.d1RowsRead)} | ${f1(v.d1Statements)} | ${v.d1BusyMs.toFixed(2)} | ${f1(v.doRequests)} | ${f1(v.doStorageBytes)} | ${v.queueMessages.toFixed(2)} | ${f1(v.cpuMs)} (${f1(v.workerdCpuMs)}) |`;
  };
  const rows = Object.values(c.presets).flatMap((p) => [
    row(p, `${p.preset} batch items`),
    ...(p.single
      ? [row(p.single.judged, `${p.preset} single, judged`), row(p.single.hit, `${p.preset} single, cache hit`)]
      : []),
  ]);
  const singles = Object.values(c.presets).flatMap((p) =>
    p.single
      ? [
          { ...p.single.judged, preset: `${p.preset} single evaluations, judged` },
          { ...p.single.hit, preset: `${p.preset} single evaluations, verdict cache hits` },
        ]
      : [],
  );
  const details = [...Object.values(c.presets), ...singles].flatMap((p) => [
    '',
    `${p.preset} (${p.items} verdicts in ${p.seconds.toFixed(0)} s), per verdict:`,
    '',
    '| D1 table | rows | bytes (with indexes) |',
    '|---|---|---|',
    ...Object.entries(p.d1Tables)
      .sort((a, b) => b[1].bytesPerVerdict - a[1].bytesPerVerdict)
      .map(([t, x]) => `| ${t} | ${f1(x.rowsPerVerdict)} | ${f1(x.bytesPerVerdict)} |`),
    '',
    '| object namespace | requests (alarms) | objects touched | busiest object | its requests |',
    '|---|---|---|---|---|',
    ...Object.entries(p.objects).map(
      ([b, o]) =>
        `| ${b} | ${f1(o.requestsPerVerdict)} (${f1(o.alarmsPerVerdict)}) | ${o.objectsTouched} | ${o.objectsTouched > 1 ? 'one per item or receiver' : JSON.stringify(o.busiestObject)} | ${f1(o.busiestObjectPerVerdict)} |`,
    ),
    '',
    '| object class | objects | SQLite bytes | largest object (bytes) |',
    '|---|---|---|---|',
    ...Object.entries(p.storage).map(
      ([k, s]) => `| ${k} | ${s.objectsPerVerdict.toFixed(2)} | ${f1(s.bytesPerVerdict)} | ${s.largestObjectBytes} |`,
    ),
    ...(p.d1TopStatements && p.d1TopStatements.length > 0
      ? [
          '',
          '| D1 statement (start) | runs | rows written | rows read |',
          '|---|---|---|---|',
          ...p.d1TopStatements.map(
            (t) => `| \`${t.sql.replace(/\|/g, '\\|')}\` | ${f1(t.runs)} | ${f1(t.written)} | ${f1(t.read)} |`,
          ),
        ]
      : []),
    ...(Object.keys(p.queues).length > 0
      ? [
          '',
          `queue messages: ${Object.entries(p.queues)
            .map(([q, k]) => `${q} ${k.toFixed(2)}`)
            .join(', ')}`,
        ]
      : []),
  ]);
  return [
    `bench:capacity at ${c.commit} (${c.measuredAt}), one batch per preset (then single evaluations with Prefer: wait, judged and cache hits, where measured), ~${c.answerWords}-word answers, mock LLM, state on ${c.state}; per verdict:`,
    '',
    '| preset | items | D1 bytes | D1 rows written | D1 rows read | D1 statements | D1 busy ms | DO requests | DO storage bytes | queue msgs | CPU ms (workerd) |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows,
    ...details,
  ].join('\n');
}
