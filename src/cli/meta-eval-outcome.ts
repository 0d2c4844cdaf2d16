/**
 * @module
 * How a meta-evaluation run ends on the terminal: its exit code and the reasons, grouped, so a run
 * where items failed (or none could be scored) says why without opening the JSON report.
 */

/** The part of a run (`MetaEvalResult` of ./meta-eval.ts) its outcome depends on. */
export interface RunSummary {
  results: readonly { item: { id: string }; status: string; error?: { code: string; message: string } }[];
  report: { nScored: number };
  outFile: string;
}

/** Exit code and the lines to print on stderr. */
export interface RunOutcome {
  /** 0 every item succeeded and at least one was scored; 1 otherwise. */
  exitCode: 0 | 1;
  lines: string[];
}

/** Reasons shown per run at most; the JSON report has every item. */
const MAX_REASONS = 10;

/** The exit code of a run and, when it is not 0, why: failures grouped by reason, with counts and example items. */
export function outcomeOfRun(run: RunSummary): RunOutcome {
  const failed = run.results.filter((r) => r.status !== 'succeeded');
  const lines: string[] = [];
  if (failed.length > 0) {
    const byReason = new Map<string, string[]>();
    for (const r of failed) {
      const reason = r.error ? `${r.error.code}: ${r.error.message}` : `ended ${r.status}`;
      byReason.set(reason, [...(byReason.get(reason) ?? []), r.item.id]);
    }
    lines.push(`${failed.length} of ${run.results.length} items did not succeed:`);
    const sorted = [...byReason.entries()].sort((a, b) => b[1].length - a[1].length);
    for (const [reason, ids] of sorted.slice(0, MAX_REASONS)) {
      const examples = ids.slice(0, 3).join(', ') + (ids.length > 3 ? ', …' : '');
      lines.push(`  ${ids.length} × ${reason}  (items ${examples})`);
    }
    if (sorted.length > MAX_REASONS) lines.push(`  … ${sorted.length - MAX_REASONS} more reasons`);
  }
  if (run.report.nScored === 0) {
    lines.push(
      run.results.length === 0
        ? 'no items to score (the dataset, or --limit, selected none)'
        : `none of the ${run.results.length} items could be scored (no verdict, or every reply unparsed)`,
    );
  }
  if (lines.length > 0) lines.push(`details per item: ${run.outFile}`);
  return { exitCode: lines.length > 0 ? 1 : 0, lines };
}
