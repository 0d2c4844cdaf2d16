/**
 * @module
 * Erasing text from SQLite without `PRAGMA secure_delete`: D1 and Durable Object SQLite refuse that pragma
 * (`not authorized: SQLITE_AUTH`, as they refuse `wal_checkpoint`, `journal_size_limit`, `auto_vacuum` and
 * `VACUUM`), so a plain `DELETE` or `UPDATE` leaves the old bytes readable in the freed space of the file's
 * pages until SQLite reuses it. SQLite writes a row whose new record is exactly as long as the old one over
 * the old one, in place (its overflow pages included), so an erasure first sets each text to as many zero
 * bytes ({@link scrubSql}) and only then deletes or replaces it: the database file keeps no copy. What this
 * cannot reach, the write-ahead log's earlier frames and the platform's point-in-time recovery, README.md
 * ("What is kept") states.
 */

/** SQL: `column` as a value of the same type and byte length, every byte zero (other types unchanged). */
function zeroedSql(column: string): string {
  return `CASE typeof(${column}) WHEN 'text' THEN CAST(zeroblob(length(CAST(${column} AS BLOB))) AS TEXT) WHEN 'blob' THEN zeroblob(length(${column})) ELSE ${column} END`;
}

/**
 * SQL: overwrites `columns` of the rows of `table` matching `where` with zero bytes in place (see the module
 * note); run it right before the statement that deletes or replaces them, in the same transaction or batch.
 * @param where a SQL condition, with `?` parameters bound by the caller
 */
export function scrubSql(table: string, columns: readonly string[], where: string): string {
  return `UPDATE ${table} SET ${columns.map((c) => `${c} = ${zeroedSql(c)}`).join(', ')} WHERE ${where}`;
}
