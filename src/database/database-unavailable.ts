/**
 * Error codes that mean the database cannot be reached right now (network, server restart,
 * pool exhausted), as opposed to a query that is wrong. mysql2 and pg put them on the error
 * itself; TypeORM's QueryFailedError carries them on `driverError`. PostgreSQL's are SQLSTATEs.
 */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'PROTOCOL_ENQUEUE_AFTER_FATAL_ERROR',
  'PROTOCOL_ENQUEUE_AFTER_QUIT',
  'ER_CON_COUNT_ERROR',
  'ER_SERVER_SHUTDOWN',
  // PostgreSQL: admin_shutdown, crash_shutdown, cannot_connect_now, too_many_connections.
  '57P01',
  '57P02',
  '57P03',
  '53300',
  'SQLITE_BUSY',
  'SQLITE_IOERR',
  'SQLITE_CANTOPEN',
]);

const MAX_CAUSE_DEPTH = 4;

/** pg's errors for a lost or refused connection carry no code, only these messages. */
const PG_UNREACHABLE_MESSAGES = /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error and is not queryable)/;

/** Whether the error (or what it wraps) says the database is unreachable: the answer is 503, not 500. */
export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < MAX_CAUSE_DEPTH && typeof current === 'object' && current !== null; depth++) {
    const { code, message, driverError, cause } = current as { code?: unknown; message?: unknown; driverError?: unknown; cause?: unknown };
    if (typeof code === 'string' && UNREACHABLE_CODES.has(code)) return true;
    // SQLite's I/O errors; PostgreSQL's class 08, connection_exception.
    if (typeof code === 'string' && (code.startsWith('SQLITE_IOERR') || /^08[0-9A-Z]{3}$/.test(code))) return true;
    if (typeof message === 'string' && PG_UNREACHABLE_MESSAGES.test(message)) return true;
    current = driverError ?? cause;
  }
  return false;
}

/** PostgreSQL's numeric_value_out_of_range and invalid_text_representation: a parameter its column cannot hold. */
const PG_UNFIT_VALUE_CODES = new Set(['22003', '22P02']);

/**
 * Whether PostgreSQL refused a parameter that its column's type cannot hold (an id past
 * integer's range). MySQL and SQLite compare such a value and find no row; the input checks
 * refuse the ones we know of, and this keeps any other such input a clear error, not a 500.
 */
export function isUnfitValue(error: unknown): boolean {
  const { code, driverError } = (error ?? {}) as { code?: unknown; driverError?: { code?: unknown } };
  const sqlState = driverError?.code ?? code;
  return typeof sqlState === 'string' && PG_UNFIT_VALUE_CODES.has(sqlState);
}

/** One line for the log: the code and message, without a stack (an outage is not a bug). */
export function describeDatabaseError(error: unknown): string {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return `${typeof code === 'string' ? `${code}: ` : ''}${typeof message === 'string' ? message : String(error)}`;
}
