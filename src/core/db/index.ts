/**
 * The data floor: the executor port every area's tables run on (a project file through node:sqlite, a team's
 * PostgreSQL schema through node-postgres), queries written once (`sql`), the few real dialect differences,
 * and parts — an area's tables registered with the project, migrated on their own.
 */
export { sql, compile, Sql, type DialectName, type ScriptDialect } from './sql';
export { bindable, heldTransaction, type Db, type Row, type RowStream, type SessionLock } from './executor';
export { codePoint, forUpdate, type Ddl } from './dialect';
export { sampleRank, sampleRankSql } from './rank';
export { keptTokens, recordTimestamp, timestampTableDdl, timestampTableSpec } from './timestamps';
export { migrateParts, PartVersionError, type AnyPart, type TablePart, type TableSpec } from './parts';
export { sqliteExecutor } from './sqlite/executor';
export { isSideReader, serveSideReader, sideReader, type SideQuery, type SideReader } from './sqlite/side';
export { cursor, pgExecutor, readSnapshot } from './postgres/executor';
export { pgDb, type PgDb } from './postgres/db';
export { fromPg, toPg } from './postgres/text';
export { createPool, explain, isDenied, isTransient } from './postgres/pool';
export * from './postgres/connection';
