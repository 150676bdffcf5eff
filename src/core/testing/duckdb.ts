/** Reading an export back as a researcher would: a query in an in-memory DuckDB, rows as plain objects. */
import { DuckDBInstance } from '@duckdb/node-api';

export async function duckdb(sql: string): Promise<Array<Record<string, unknown>>> {
  const db = await DuckDBInstance.create(':memory:');
  const connection = await db.connect();
  try {
    return (await connection.runAndReadAll(sql)).getRowObjectsJS();
  } finally {
    connection.closeSync();
    db.closeSync();
  }
}
