/**
 * @module
 * An agreement report (./agreement.ts) as Markdown: a counts line and a `metric | value | CI` table, for the
 * meta-evaluation CLI and the report a meta-evaluation keeps.
 */
import type { AgreementReport, Estimate } from './agreement.js';

/**
 * Markdown rendering of a report: a counts line, then a `metric | value | CI` table (values to 3 decimals,
 * `n/a` when undefined, `–` without CI).
 */
export function toMarkdown(report: AgreementReport): string {
  const fmt = (v: number | null) => (v === null ? 'n/a' : v.toFixed(3));
  const ci = (e: Estimate) => (e.ci ? `[${e.ci.lo.toFixed(3)}, ${e.ci.hi.toFixed(3)}]` : '–');
  const level = report.bootstrap ? `${Math.round(report.bootstrap.level * 100)}% CI` : 'CI';
  const lines: string[] = [];
  if (report.kind === 'pointwise' && report.headline) {
    const h = report.headline;
    lines.push(
      `**${h.label}**: Spearman ρ ${fmt(h.spearman)}, Kendall τ ${fmt(h.kendall)}, Pearson r ${fmt(h.pearson)} — ${h.definition}`,
      '',
    );
  }
  lines.push(
    `n = ${report.n}, scored = ${report.nScored}, missing = ${report.nMissing}` +
      (report.kind === 'pointwise' ? `, groups = ${report.nGroups}` : ''),
    '',
    `| metric | value | ${level} |`,
    '|---|---|---|',
  );
  const row = (name: string, e: Estimate) => lines.push(`| ${name} | ${fmt(e.value)} | ${ci(e)} |`);
  const plain = (name: string, v: number | null) => lines.push(`| ${name} | ${fmt(v)} | – |`);
  if (report.kind === 'pairwise') {
    row('accuracy', report.accuracy);
    row("Cohen's κ (A/B/tie)", report.kappa);
    plain('accuracy (judge decided)', report.accuracyDecided);
    if (report.accuracyTieAsB !== undefined)
      plain('accuracy (judge tie counted as B, as Bandi et al.)', report.accuracyTieAsB);
    plain('tie rate', report.tieRate);
    plain(`position-flip rate (n = ${report.nFlipMeasured})`, report.flipRate);
  } else {
    if (report.accuracy) row('accuracy (pass/fail: judge = expected)', report.accuracy);
    row('Pearson r (item)', report.item.pearson);
    row('Spearman ρ (item)', report.item.spearman);
    row('Kendall τ-b (item)', report.item.kendall);
    const g = report.group.pearson;
    const groups = `${g.groupsUsed} groups, ${g.groupsSkipped} skipped`;
    row(`Pearson r (group; ${groups})`, report.group.pearson);
    row('Spearman ρ (group)', report.group.spearman);
    row('Kendall τ-b (group)', report.group.kendall);
    if (report.aspects && report.aspects.length > 0) {
      lines.push('', `Per aspect (item level; the rows above are the overall's):`, '');
      lines.push(`| aspect | n scored | Pearson r | Spearman ρ | Kendall τ-b |`, '|---|---|---|---|---|');
      const cell = (e: Estimate) => `${fmt(e.value)} ${ci(e)}`;
      for (const a of report.aspects)
        lines.push(
          `| ${a.aspect} | ${a.nScored} | ${cell(a.item.pearson)} | ${cell(a.item.spearman)} | ${cell(a.item.kendall)} |`,
        );
    }
  }
  return lines.join('\n') + '\n';
}
