/**
 * @module
 * SQL fragments with their bound parameters, so statements can be assembled from pieces written in
 * different modules (a guard from the ending, a tenant looked up in SQL, the event's data built by a
 * sub-select) without counting `?`s by hand: {@link sql} inlines a fragment's text and keeps its
 * parameters in order; any other interpolated value becomes one bound `?`.
 */

/** A value D1 binds. */
export type SqlParam = string | number | null;

/** A piece of SQL and the values its `?`s bind, in order. */
export class SqlExpr {
  constructor(
    /** The SQL text; each `?` binds the next of {@link params}. */
    readonly text: string,
    readonly params: readonly SqlParam[],
  ) {}

  /** Binds this expression as a whole statement. */
  prepare(db: D1Database): D1PreparedStatement {
    return db.prepare(this.text).bind(...this.params);
  }
}

/**
 * Tagged template: `sql\`SELECT … WHERE id = ${id} AND ${guard}\``. A {@link SqlExpr} value is inlined
 * with its parameters; any other value is bound as one parameter (never inlined as text).
 */
export function sql(strings: TemplateStringsArray, ...values: readonly (SqlParam | SqlExpr)[]): SqlExpr {
  let text = strings[0] ?? '';
  const params: SqlParam[] = [];
  values.forEach((v, i) => {
    if (v instanceof SqlExpr) {
      text += v.text;
      params.push(...v.params);
    } else {
      text += '?';
      params.push(v);
    }
    text += strings[i + 1] ?? '';
  });
  return new SqlExpr(text, params);
}

/** A fragment with no parameters (SQL text written in code, never from input). */
export function rawSql(text: string): SqlExpr {
  return new SqlExpr(text, []);
}

/** The conditions joined by `op`, each parenthesised; `empty` when there are none. */
function joined(conditions: readonly SqlExpr[], op: 'AND' | 'OR', empty: string): SqlExpr {
  if (conditions.length === 0) return rawSql(empty);
  return new SqlExpr(
    conditions.map((c) => `(${c.text})`).join(` ${op} `),
    conditions.flatMap((c) => c.params),
  );
}

/** `a AND b AND …` of the given conditions (`1` when there are none). */
export function sqlAnd(conditions: readonly SqlExpr[]): SqlExpr {
  return joined(conditions, 'AND', '1');
}

/** `a OR b OR …` of the given conditions (`0` when there are none). */
export function sqlOr(conditions: readonly SqlExpr[]): SqlExpr {
  return joined(conditions, 'OR', '0');
}
