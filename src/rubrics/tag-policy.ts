/**
 * @module
 * A tag's minimum agreement (`minAgreement`): which figures a rubric's golden check has for its kind and
 * scale, and why a version's check does not meet a tag's policy. Read by `setTag` (./service.ts).
 */
import type { AgreementReport } from '../metrics/agreement.js';
import { isTwoPoint } from '../metrics/pass-fail.js';
import type { VersionRecord } from './rows.js';
import type { MinAgreement, Rubric, RubricCheck } from './schemas.js';

/** A check's figure by name, or undefined when the report has no such figure (the other kind's). */
export function figureOf(report: AgreementReport, metric: MinAgreement['metric']): number | null | undefined {
  if (report.kind === 'pairwise')
    return metric === 'accuracy' ? report.accuracy.value : metric === 'kappa' ? report.kappa.value : undefined;
  // A pointwise check has accuracy only on a pass/fail scale (src/rubric-checks/service.ts adds it).
  if (metric === 'accuracy') return report.accuracy?.value;
  return metric === 'kappa' ? undefined : report.item[metric].value;
}

/** Why version `v`, whose golden check is `check`, may not carry a tag with policy `min`, or null when it may. */
export function policyRefusal(
  id: string,
  v: VersionRecord,
  check: RubricCheck | null,
  tag: string,
  min: MinAgreement,
): string | null {
  const what = `tag "${tag}" requires ${min.metric} ≥ ${min.min} in the golden check`;
  if (!check) return `${what}; version ${v.version} has none: POST /v1/rubrics/${id}/versions/${v.version}/check`;
  if (!check.report) return `${what}; version ${v.version}'s check (${check.metaEvaluationId}) is still running`;
  const figure = figureOf(check.report, min.metric);
  if (figure === undefined) return `${what}, a figure a ${check.report.kind} check does not have`;
  if (figure === null) return `${what}; version ${v.version}'s check has no ${min.metric} (too few scored examples)`;
  if (figure < min.min) return `${what}; version ${v.version}'s check has ${min.metric} ${figure.toFixed(3)}`;
  return null;
}

/** The figures of a pairwise check; a pointwise check has the item-level correlations. */
const PAIRWISE_METRICS: readonly MinAgreement['metric'][] = ['accuracy', 'kappa'];

/**
 * Why a tag may not ask `metric` of version `v`'s checks, or null: pairwise checks have accuracy and κ,
 * pointwise ones the correlations, and accuracy too when the version scores on two points (pass/fail).
 */
export function metricRefusal(kind: Rubric['kind'], v: VersionRecord, metric: MinAgreement['metric']): string | null {
  if (kind === 'pairwise')
    return PAIRWISE_METRICS.includes(metric) ? null : `a pairwise rubric's check has no ${metric} (accuracy or kappa)`;
  if (metric === 'kappa') return "a pointwise rubric's check has no kappa (pearson, spearman or kendall)";
  const scale = v.content.scale;
  if (metric !== 'accuracy' || isTwoPoint(scale)) return null;
  const has = scale ? `${scale.min}-${scale.max}` : 'unset';
  return `a pointwise rubric's check has accuracy only on a pass/fail scale (two points, e.g. {"min": 0, "max": 1}); version ${v.version}'s scale is ${has}: use pearson, spearman or kendall`;
}
