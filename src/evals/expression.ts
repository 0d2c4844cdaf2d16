/**
 * @module
 * `multi`'s `calculate_output`: an arithmetic expression over the sub-graders' scores, parsed and evaluated
 * by expr-eval (an interpreter over its own token list: no `eval`, no `Function`), restricted to what
 * OpenAI documents: numbers, the graders' names, `+ - * / ^`, parentheses, and `min max abs floor ceil exp
 * sqrt log` (`log` is the natural logarithm). Everything else expr-eval knows (comparisons, strings,
 * assignment, function definitions, member access, `random`, …) is switched off or refused by name.
 */
import type { Expression } from 'expr-eval-fork';
import { Parser } from 'expr-eval-fork';

/** The functions `calculate_output` may call. */
export const EXPRESSION_FUNCTIONS = ['min', 'max', 'abs', 'floor', 'ceil', 'exp', 'sqrt', 'log'] as const;

/** A refused or unreadable expression. */
export class ExpressionError extends Error {}

function restrictedParser(): Parser {
  const parser = new Parser({
    allowMemberAccess: false,
    operators: {
      add: true,
      subtract: true,
      multiply: true,
      divide: true,
      power: true,
      comparison: false,
      concatenate: false,
      conditional: false,
      factorial: false,
      logical: false,
      remainder: false,
      in: false,
      assignment: false,
      fndef: false,
      random: false,
      length: false,
    },
  });
  const allowed = new Set<string>([...EXPRESSION_FUNCTIONS, '-', '+']);
  const only = (table: unknown) =>
    Object.fromEntries(Object.entries(table as Record<string, unknown>).filter(([name]) => allowed.has(name)));
  parser.unaryOps = only(parser.unaryOps);
  parser.functions = only(parser.functions);
  parser.consts = {};
  return parser;
}

const parser = restrictedParser();

/**
 * The parsed expression, checked to name only `variables` and the allowed functions.
 * @throws ExpressionError naming what is wrong.
 */
export function parseExpression(source: string, variables: readonly string[]): Expression {
  let expr: Expression;
  try {
    expr = parser.parse(source);
  } catch (e) {
    throw new ExpressionError(e instanceof Error ? e.message : String(e));
  }
  if (/["']/.test(source)) throw new ExpressionError('strings are not allowed');
  const known = new Set<string>([...variables, ...EXPRESSION_FUNCTIONS]);
  for (const symbol of expr.symbols()) {
    if (!known.has(symbol)) {
      throw new ExpressionError(
        `unknown name "${symbol}" (use the graders' names ${variables.map((v) => `"${v}"`).join(', ')} and ${EXPRESSION_FUNCTIONS.join(', ')})`,
      );
    }
  }
  return expr;
}

/**
 * The expression's value with each grader's score bound to its name.
 * @throws ExpressionError when it is refused or its value is not a finite number.
 */
export function evaluateExpression(source: string, scores: Readonly<Record<string, number>>): number {
  const expr = parseExpression(source, Object.keys(scores));
  const value: unknown = expr.evaluate({ ...scores });
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new ExpressionError(`the expression's value is ${String(value)}, not a finite number`);
  }
  return value;
}
